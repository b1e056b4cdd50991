/* wx_mutant.c — test-only: RandomX called as the digest tools did before
 * bg_wx.h / bg_guard.h (no W+X probe, no guard), so the self-test
 * selftest/wx_host.sh can show that its checks fail for such a tool.
 * Usage: bg-wx-mutant jit|interp — one light-mode hash with those flags.
 * Exit 0; 7 when RandomX returns NULL; under a host that forbids W+X
 * memory, killed by SIGABRT (the failure the real tools now turn into a
 * skip or an exit 7). */
#include <stdio.h>
#include <string.h>

#include <randomx.h>

int main(int argc, char **argv)
{
    int jit = argc > 1 && !strcmp(argv[1], "jit");
    randomx_flags f = jit ? RANDOMX_FLAG_JIT : RANDOMX_FLAG_DEFAULT;
    randomx_cache *c = randomx_alloc_cache(f);
    if (c)
        randomx_init_cache(c, "wx", 2);
    randomx_vm *vm = c ? randomx_create_vm(f, c, NULL) : NULL;
    if (!vm) {
        fprintf(stderr, "buildgate: bg-wx-mutant: RandomX returned NULL\n");
        return 7;
    }
    unsigned char out[RANDOMX_HASH_SIZE];
    randomx_calculate_hash(vm, "wx", 2, out);
    randomx_destroy_vm(vm);
    randomx_release_cache(c);
    return 0;
}
