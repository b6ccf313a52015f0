"""Random JSON values for the fuzzers (scripts/fuzz-requests.py over HTTP, scripts/fuzz-bridge.py over the bridges)."""

ALPHABET = "abcdefghijklmnopqrstuvwxyz ABCDEFG0123456789@.-_:/\"'{}[]<>\\%$#!?\u00e9\u4e2d\U0001F600"


def rand_text(rng, n):
    return "".join(rng.choice(ALPHABET) for _ in range(n))


def rand_value(rng, nul, depth=0):
    """A random JSON value, nested at most three deep; `nul` is how a NUL character is written in a string."""
    kind = rng.randrange(9 if depth < 3 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, -1, 1, 10 ** 20, 3.5, -1e308, 2 ** 31, 2 ** 63, 100000])
    if kind == 3:
        return rand_text(rng, rng.randrange(0, 40))
    if kind == 4:
        return "x" + nul + "y"
    if kind == 5:
        return ""
    if kind == 6:
        return [rand_value(rng, nul, depth + 1) for _ in range(rng.randrange(0, 4))]
    return {rand_text(rng, rng.randrange(1, 8)): rand_value(rng, nul, depth + 1) for _ in range(rng.randrange(0, 4))}
