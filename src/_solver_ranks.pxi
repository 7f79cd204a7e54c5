# Relative ranks (pext of a suit's lane) and equivalent cards (runs of touching cards).

# ---------------------------------------------------------------- relative ranks

# pext (parallel bit extract) of a 13-bit lane in two table lookups: the low 7 bits and
# the high 6 bits of the lane.
cdef uint8_t PEXT7[128 * 128]
cdef uint8_t PEXT6[64 * 64]


cdef void _init_pext_tables() noexcept nogil:
    cdef int m, x, b, out, k
    for m in range(128):
        for x in range(128):
            out = 0
            k = 0
            for b in range(7):
                if (m >> b) & 1:
                    if (x >> b) & 1:
                        out |= 1 << k
                    k += 1
            PEXT7[m * 128 + x] = out
    for m in range(64):
        for x in range(64):
            out = 0
            k = 0
            for b in range(6):
                if (m >> b) & 1:
                    if (x >> b) & 1:
                        out |= 1 << k
                    k += 1
            PEXT6[m * 64 + x] = out


_init_pext_tables()


cdef inline uint64_t _pext13(uint64_t x, uint64_t lo_row, uint64_t hi_row,
                              int lo_bits) noexcept nogil:
    """The bits of x (a 13-bit lane) selected by a mask m, packed to the bottom; the mask
    comes as its table rows (m & 127) << 7 and (m >> 7) << 6 and popcount(m & 127), which
    the callers compute once for several x."""
    return PEXT7[lo_row | (x & 127)] | (<uint64_t>PEXT6[hi_row | (x >> 7)] << lo_bits)


cdef inline uint64_t _above(int card) noexcept nogil:
    """All bits above `card` (any suit: mask with a suit lane)."""
    return ~((((<uint64_t>1) << card) << 1) - 1)


cdef inline uint64_t _below(int card) noexcept nogil:
    return ((<uint64_t>1) << card) - 1


# ---------------------------------------------------------------- equivalent cards

cdef inline uint64_t _run_tops(uint64_t h, uint64_t gaps) noexcept nogil:
    """Cards of h that are the highest of their run: a run is a set of cards of one suit in
    h with only gaps (cards out of play) between them. Occluded fill of h downward through
    the gaps; a card is not a top if the position above it is reached."""
    cdef uint64_t f = h
    cdef uint64_t g = gaps
    f |= g & (f >> 1)
    g &= g >> 1
    f |= g & (f >> 2)
    g &= g >> 2
    f |= g & (f >> 4)
    g &= g >> 4
    f |= g & (f >> 8)
    return h & ~(f >> 1)


cdef inline uint64_t _run_bottoms(uint64_t h, uint64_t gaps) noexcept nogil:
    """Cards of h that are the lowest of their run (mirror of _run_tops)."""
    cdef uint64_t f = h
    cdef uint64_t g = gaps
    f |= g & (f << 1)
    g &= g << 1
    f |= g & (f << 2)
    g &= g << 2
    f |= g & (f << 4)
    g &= g << 4
    f |= g & (f << 8)
    return h & ~(f << 1)


cdef inline uint64_t _run_adjust(uint64_t rel, int card, uint64_t hand,
                                 uint64_t gaps) noexcept nogil:
    """A run's top card played and found relevant: its equivalents (the rest of the run) were
    not searched, so the whole run must stay exact: add the run's lowest card."""
    cdef uint64_t bottoms
    if (rel >> card) & 1:
        bottoms = _run_bottoms(hand | ((<uint64_t>1) << card), gaps) & _below(card + 1)
        rel |= (<uint64_t>1) << highest_card(bottoms)
    return rel


cdef inline uint64_t _small_twins(uint64_t rel, int card, uint64_t hand) noexcept nogil:
    """Cards of `hand` whose result is already known once `card` was searched and found
    not to cut, with relevant cards rel: the cards of its suit that lie, like `card`,
    below the suit's lowest relevant card. Playing one of them instead of `card` only
    moves small cards between the hand and the trick, and rel says that the result holds
    however the small cards are placed."""
    cdef uint64_t lane = suit_mask(card_suit(card))
    cdef uint64_t r = rel & lane
    if not r:
        return hand & lane
    if card >= lowest_card(r):
        return 0
    return hand & lane & _below(lowest_card(r))
