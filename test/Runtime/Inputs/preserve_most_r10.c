// Does a preserve_most call into the runtime keep r10? The dynamic loader's
// lazy-binding resolver is plain C: through a PLT slot that is not bound
// yet (every call, under LD_BIND_NOT=1) it clobbers r10, which
// preserve_most promises to keep. Through the GOT (-fno-plt, or the
// nonlazybind the pass puts on its declaration) the resolver never runs.
#include <stdint.h>
#include <stdio.h>
__attribute__((preserve_most)) uint64_t
__roofline_cache_access_line(const void *P, uint64_t SizeAndWrite, const void *K,
                        uint32_t Site);
int main(void) {
  int Lost = 0;
  for (int I = 0; I < 4; ++I) {
    register long V asm("r10") = 0x1234567 + I;
    asm volatile("" : "+r"(V));
    __roofline_cache_access_line(&Lost, 4, 0, 0);
    asm volatile("" : "+r"(V));
    Lost += V != 0x1234567 + I;
  }
  printf("r10 lost in %d of 4 calls\n", Lost);
  return Lost != 0;
}
