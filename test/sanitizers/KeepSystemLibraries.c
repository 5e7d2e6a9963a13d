//===- KeepSystemLibraries.c - dlclose that keeps system libraries mapped -===//
//
// Preloaded by scripts/test-sanitizers.sh into every process of the sanitizer
// suite. A dlclose of a system library (a path under /usr/lib or /lib: the
// Vulkan loader and the drivers it opens, Mesa's libLLVM, OpenBLAS, BLIS) is
// answered with success and leaves the library mapped; every other dlclose
// -- fuel's shims, the kernel modules of an executable, test libraries --
// goes to the real one, so fuel's own modules still unload.
//
// Why: such a library keeps caches in its own globals. Once dlclose unmaps
// it, LeakSanitizer finds that memory unreachable and reports it with a frame
// in an unloaded, unnamed module, which no suppression can name. Kept
// mapped, the memory stays reachable, and a real leak is reported against
// the library's name (test/sanitizers/lsan.supp).
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <string.h>

typedef int (*DlcloseFn)(void *);

static int isSystemLibrary(const char *path) {
  return path &&
         (strncmp(path, "/usr/lib/", 9) == 0 ||
          strncmp(path, "/lib/", 5) == 0 || strncmp(path, "/lib64/", 7) == 0);
}

int dlclose(void *handle) {
  static DlcloseFn next;
  if (!next)
    next = (DlcloseFn)dlsym(RTLD_NEXT, "dlclose");
  struct link_map *map = NULL;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map &&
      isSystemLibrary(map->l_name))
    return 0;
  return next(handle);
}
