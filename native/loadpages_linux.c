// loadpages_linux.c hands back, once the addon is loaded, the pages of its read-only segments
// that loading mapped into the process. The dynamic loader reads all of the relocation table
// (1.6 MB) once, and every fault on code or tables maps the page-cache pages around it, so
// 12 MB of the library was resident before a store was opened. The pages stay in the page
// cache; what the addon runs afterwards faults back in, so the process keeps what it uses.
#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "loadpages.h"

// contains reports whether address lies in one of info's loaded segments.
static int contains(const struct dl_phdr_info* info, uintptr_t address) {
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr)* ph = &info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && address >= start && address < start + ph->p_memsz) return 1;
  }
  return 0;
}

// has_text_relocations reports whether the loader wrote into read-only segments: their pages
// would then be private copies, which dropping would undo.
static int has_text_relocations(const struct dl_phdr_info* info) {
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr)* ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_DYNAMIC) continue;
    const ElfW(Dyn)* dyn = (const ElfW(Dyn)*)(info->dlpi_addr + ph->p_vaddr);
    for (; dyn->d_tag != DT_NULL; dyn++) {
      if (dyn->d_tag == DT_TEXTREL) return 1;
      if (dyn->d_tag == DT_FLAGS && (dyn->d_un.d_val & DF_TEXTREL)) return 1;
    }
  }
  return 0;
}

// release_own_segments drops the mapped pages of each segment of the addon that is never
// written, whole pages only, so nothing of a writable neighbour is touched. It stops the
// walk (returns nonzero) once it has found the addon.
static int release_own_segments(struct dl_phdr_info* info, size_t size, void* released) {
  (void)size;
  if (!contains(info, (uintptr_t)&sk_release_load_pages)) return 0;
  if (has_text_relocations(info)) return 1;
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr)* ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W)) continue;
    uintptr_t start = info->dlpi_addr + ph->p_vaddr;
    uintptr_t end = start + ph->p_filesz;
    start = (start + page - 1) & ~(page - 1);
    end &= ~(page - 1);
    if (end > start) madvise((void*)start, end - start, MADV_DONTNEED);
  }
  *(int*)released = 1;
  return 1;
}

int sk_release_load_pages(void) {
  int released = 0;
  dl_iterate_phdr(release_own_segments, &released);
  return released;
}
