"""A host reference of cuarray.random's generator: Philox4x32-10 (Random123's constants), one counter block at a time."""

M32 = 0xFFFFFFFF


def philox(ctr, key):
    """The four 32-bit output words of Philox4x32-10 for counter words `ctr` and the 64-bit `key`."""
    c = list(ctr)
    k0, k1 = key & M32, key >> 32
    for _ in range(10):
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k0, p1 & M32, (p0 >> 32) ^ c[3] ^ k1, p0 & M32]
        k0, k1 = (k0 + 0x9E3779B9) & M32, (k1 + 0xBB67AE85) & M32
    return c


def block(key, index, sub=0):
    """The block of element stream `index`, sub-block `sub` (the counter layout of cuarray's kernels)."""
    return philox([index & M32, index >> 32, sub & M32, sub >> 32], key)
