# The C-level core of ts358: card sets as bitboards, legal moves, trick resolution,
# random playouts and (in the _solver_*.pxi files) the double-dummy solver.
#
# Card layout, shared with the Python layer (ts358.cards): a card's id is
# suit * 16 + rank, with suits S=0 H=1 D=2 C=3 and ranks 2=0 ... A=12; a card set is a
# uint64_t with bit `id` set for each card. A 16-bit lane per suit keeps a suit's cards
# in one shift-and-mask and leaves the top three bits of each lane empty.
#
# Contracts: 0-3 trump suit S H D C, 4 no-trump, 5 no-tricks.
# Void rules (what a player void in the suit led plays; following suit is the same in all):
# 0 house (a trump if holding one, any trump), 1 kurnik (any card), 2 overtrump (a trump if
# holding one, and one above the highest trump already in the trick when holding such a
# trump). Without a trump suit (no-trump, no-tricks) a void player plays any card in all.

from libc.stdint cimport uint64_t, int64_t, int8_t

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static inline int ts_popcount(unsigned long long x) { return (int)__popcnt64(x); }
    static inline int ts_ctz(unsigned long long x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
    static inline int ts_clz(unsigned long long x) { unsigned long i; _BitScanReverse64(&i, x); return 63 - (int)i; }
    #else
    /* The search counts bits at every node. With the POPCNT instruction (setup.py enables
       it on x86-64, see ts_cpu_ok) or on ARM the builtin is one instruction; a plain
       x86-64 build would turn it into a libgcc call, several times slower than this. */
    #if defined(__POPCNT__) || defined(__ARM_NEON) || defined(__aarch64__)
    static inline int ts_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    #else
    static inline int ts_popcount(unsigned long long x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    #endif
    static inline int ts_ctz(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int ts_clz(unsigned long long x) { return __builtin_clzll(x); }
    #endif
    /* 0 when this build uses POPCNT and the CPU lacks it (x86-64 CPUs before about 2008):
       the module then refuses to load instead of dying on an illegal instruction. Nothing
       before this check in the module's initialisation counts bits. */
    static int ts_cpu_ok(void) {
    #if defined(__POPCNT__) && (defined(__GNUC__) || defined(__clang__))
        __builtin_cpu_init();
        return __builtin_cpu_supports("popcnt") != 0;
    #else
        return 1;
    #endif
    }
    """
    int ts_popcount(uint64_t x) noexcept nogil
    int ts_ctz(uint64_t x) noexcept nogil
    int ts_clz(uint64_t x) noexcept nogil
    int ts_cpu_ok() noexcept nogil


if not ts_cpu_ok():
    raise ImportError(
        "this build of ts358 needs a CPU with the POPCNT instruction (x86-64 CPUs from "
        "about 2008 on); build it from source on this machine instead: "
        "TS358_PORTABLE=1 pip install --no-binary ts358 ts358"
    )


cdef enum:
    NSUITS = 4
    NRANKS = 13
    NO_TRUMP = 4
    NO_TRICKS = 5
    HOUSE = 0
    KURNIK = 1
    OVERTRUMP = 2

# C constants, not module variables: the compiler folds them into the search's bit
# arithmetic instead of loading them from memory at every use. A suit's mask comes from a
# table: one load for a suit known only at run time, instead of a variable shift.
cdef extern from *:
    """
    static const uint64_t ts_suit_masks[4] = {
        0x1FFFULL, 0x1FFF0000ULL, 0x1FFF00000000ULL, 0x1FFF000000000000ULL};
    """
    const uint64_t SUIT_BITS "((uint64_t)0x1FFFULL)"
    const uint64_t DECK "((uint64_t)0x1FFF1FFF1FFF1FFFULL)"
    const uint64_t* SUIT_MASKS "ts_suit_masks"


# ---------------------------------------------------------------- bitboard helpers

cdef inline int popcount(uint64_t x) noexcept nogil:
    return ts_popcount(x)


cdef inline int lowest_card(uint64_t x) noexcept nogil:
    # Undefined for x == 0: callers check first.
    return ts_ctz(x)


cdef inline int highest_card(uint64_t x) noexcept nogil:
    return 63 - ts_clz(x)


cdef inline uint64_t suit_mask(int suit) noexcept nogil:
    # suit 0-3 only: callers check for "no trump" (-1) first.
    return SUIT_MASKS[suit]


cdef inline int card_suit(int card) noexcept nogil:
    return card >> 4


cdef inline int card_rank(int card) noexcept nogil:
    return card & 15


cdef inline int trump_of(int contract) noexcept nogil:
    return contract if contract < NSUITS else -1


# ---------------------------------------------------------------- rules of play

cdef inline int high_trump(const int* trick, int nt, int trump) noexcept nogil:
    """The highest trump among the cards trick[0..nt) (card id), or -1: none."""
    cdef int i, high = -1
    for i in range(nt):
        if card_suit(trick[i]) == trump and trick[i] > high:
            high = trick[i]
    return high


cdef inline uint64_t legal_mask(uint64_t hand, int lead_suit, int trump, int void_rule,
                                const int* trick, int nt) noexcept nogil:
    """The cards of `hand` that may be played to a trick led in `lead_suit` (-1: on lead).
    trick[0..nt): the cards already in the trick, read only under the overtrump rule (a
    caller that has none to give passes NULL, 0: then no trump is in the trick)."""
    cdef uint64_t follow, trumps, over
    cdef int high
    if lead_suit < 0:
        return hand
    follow = hand & suit_mask(lead_suit)
    if follow:
        return follow
    if void_rule == HOUSE and trump >= 0:
        trumps = hand & suit_mask(trump)
        if trumps:
            return trumps
    elif void_rule == OVERTRUMP and trump >= 0:
        trumps = hand & suit_mask(trump)
        if trumps:
            high = high_trump(trick, nt, trump)
            if high >= 0:
                # The trumps above it (a trump's rank is its id within the suit's lane).
                over = trumps & ~((((<uint64_t>1) << high) << 1) - 1)
                if over:
                    return over
            return trumps
    return hand


cdef inline bint beats(int card, int best, int trump) noexcept nogil:
    """Whether `card` takes the trick from the card currently winning it."""
    if card_suit(card) == card_suit(best):
        return card_rank(card) > card_rank(best)
    return card_suit(card) == trump


cdef inline int trick_winner_c(const int* cards, int n, int trump) noexcept nogil:
    """Index (0 = leader) of the card that wins the trick `cards[0..n)`."""
    cdef int i, best = 0
    for i in range(1, n):
        if beats(cards[i], cards[best], trump):
            best = i
    return best


# ---------------------------------------------------------------- random numbers

cdef struct Rng:
    uint64_t state


cdef inline uint64_t rng_next(Rng* rng) noexcept nogil:
    # splitmix64: tiny, fast, and good enough for shuffles and playouts.
    cdef uint64_t z
    rng.state += <uint64_t>0x9E3779B97F4A7C15
    z = rng.state
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline int rng_below(Rng* rng, int n) noexcept nogil:
    return <int>(rng_next(rng) % <uint64_t>n)


cdef inline int nth_card(uint64_t cards, int k) noexcept nogil:
    """The k-th lowest card of a non-empty set (0-based)."""
    while k > 0:
        cards &= cards - 1
        k -= 1
    return lowest_card(cards)


cdef inline int random_card(uint64_t cards, Rng* rng) noexcept nogil:
    return nth_card(cards, rng_below(rng, popcount(cards)))


cdef void deal_random(uint64_t hands[3], Rng* rng) noexcept nogil:
    """Deal 16 cards to each of three hands from a shuffled deck; the rest is the talon."""
    cdef int deck[52]
    cdef int i, j, t, n = 0, s, r
    for s in range(NSUITS):
        for r in range(NRANKS):
            deck[n] = s * 16 + r
            n += 1
    for i in range(51, 0, -1):
        j = rng_below(rng, i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    hands[0] = hands[1] = hands[2] = 0
    for i in range(48):
        hands[i // 16] |= (<uint64_t>1) << deck[i]


cdef void play_random(uint64_t hands[3], int leader, int contract, int void_rule,
                      Rng* rng, int taken[3]) noexcept nogil:
    """Play the hands out by uniformly random legal cards; add the tricks to `taken`.

    `hands` is consumed. Seats play in order leader, leader+1, leader+2 (mod 3).
    """
    cdef int trick[3]
    cdef int i, seat, lead_suit, winner
    cdef int trump = trump_of(contract)
    while hands[leader]:
        lead_suit = -1
        for i in range(3):
            seat = (leader + i) % 3
            trick[i] = random_card(legal_mask(hands[seat], lead_suit, trump, void_rule, trick, i),
                                   rng)
            hands[seat] &= ~((<uint64_t>1) << trick[i])
            if i == 0:
                lead_suit = card_suit(trick[0])
        winner = (leader + trick_winner_c(trick, 3, trump)) % 3
        taken[winner] += 1
        leader = winner


# ---------------------------------------------------------------- Python-facing surface

cdef int _check_contract(int contract) except -1:
    if contract < 0 or contract > NO_TRICKS:
        raise ValueError(f"contract code must be 0-5, not {contract}")
    return 0


cdef int _check_void_rule(int void_rule) except -1:
    if void_rule != HOUSE and void_rule != KURNIK and void_rule != OVERTRUMP:
        raise ValueError(
            f"void rule code must be 0 (house), 1 (kurnik) or 2 (overtrump), not {void_rule}")
    return 0


cdef int _check_card(int card) except -1:
    if card < 0 or card >= 64 or not (DECK >> card) & 1:
        raise ValueError(f"not a card id: {card}")
    return 0


def legal_moves(uint64_t hand, trick, int contract, int void_rule=HOUSE):
    """Card set (bitboard) of the cards in `hand` that may be played to `trick`.

    `trick` is the sequence of card ids already played to the trick, leader first (the
    overtrump rule reads its trumps).
    """
    _check_contract(contract)
    _check_void_rule(void_rule)
    cdef int buf[2]
    cdef int i, n = len(trick)
    cdef int lead_suit = -1
    if n >= 3:
        raise ValueError("a trick holds at most three cards")
    for i in range(n):
        _check_card(trick[i])
        buf[i] = trick[i]
    if n:
        lead_suit = card_suit(buf[0])
    return legal_mask(hand & DECK, lead_suit, trump_of(contract), void_rule, buf, n)


def trick_winner(cards, int contract):
    """Index (0 = leader) of the card that wins the trick `cards` (card ids, leader first)."""
    _check_contract(contract)
    cdef int buf[3]
    cdef int i, n = len(cards)
    if n < 1 or n > 3:
        raise ValueError("a trick holds one to three cards")
    for i in range(n):
        _check_card(cards[i])
        buf[i] = cards[i]
    return trick_winner_c(buf, n, trump_of(contract))


def random_playout(hands, int leader, int contract, int void_rule, uint64_t seed):
    """Play three hands out with random legal cards; return the tricks each seat took.

    `hands` are three card sets of equal size; `leader` (0-2) leads the first trick.
    """
    _check_contract(contract)
    _check_void_rule(void_rule)
    cdef uint64_t h[3]
    cdef int taken[3]
    cdef Rng rng
    cdef int i
    if len(hands) != 3:
        raise ValueError("three hands are needed")
    for i in range(3):
        h[i] = hands[i]
        if h[i] & ~DECK:
            raise ValueError(f"hand {i} holds bits that are not cards")
        taken[i] = 0
    if popcount(h[0]) != popcount(h[1]) or popcount(h[1]) != popcount(h[2]):
        raise ValueError("the three hands must hold equally many cards")
    if (h[0] & h[1]) or (h[0] & h[2]) or (h[1] & h[2]):
        raise ValueError("a card is in two hands")
    if leader < 0 or leader > 2:
        raise ValueError(f"leader must be 0-2, not {leader}")
    rng.state = seed
    with nogil:
        play_random(h, leader, contract, void_rule, &rng, taken)
    return (taken[0], taken[1], taken[2])


def random_deals(int n, uint64_t seed, int contract, int void_rule=HOUSE):
    """Deal and play out `n` random full deals (16 cards each, seat 0 leads).

    Returns the total tricks each seat took over all deals; used by the tests (every deal
    has 16 tricks) and by bench/ to measure the core's playout speed.
    """
    _check_contract(contract)
    _check_void_rule(void_rule)
    cdef uint64_t h[3]
    cdef int taken[3]
    cdef int64_t totals[3]
    cdef Rng rng
    cdef int i, k
    if n < 0:
        raise ValueError("n must not be negative")
    rng.state = seed
    totals[0] = totals[1] = totals[2] = 0
    with nogil:
        for i in range(n):
            deal_random(h, &rng)
            taken[0] = taken[1] = taken[2] = 0
            play_random(h, 0, contract, void_rule, &rng, taken)
            for k in range(3):
                totals[k] += taken[k]
    return (totals[0], totals[1], totals[2])


# The solver, split by concern (each file's header says what it owns).
include "_solver_state.pxi"
include "_solver_ranks.pxi"
include "_solver_table.pxi"
include "_solver_team.pxi"
include "_solver_bounds.pxi"
include "_solver_order.pxi"
include "_solver_search.pxi"
include "_solver_api.pxi"
