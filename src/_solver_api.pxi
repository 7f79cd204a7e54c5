# The Python-facing surface: Solver (values, per-card values, bounds, limits, progress)
# and SearchLimit.

# ---------------------------------------------------------------- Python-facing surface

class SearchLimit(RuntimeError):
    """A solve stopped at its node limit (``max_nodes``) or deadline before finding the
    value; ``bounds`` holds what it proved: ``(lo, hi)`` for a value, a list of
    ``(card, lo, hi)`` for per-card values."""

    def __init__(self, message, bounds=None):
        super().__init__(message)
        self.bounds = bounds


cdef inline uint64_t _buckets_in(int64_t mb) noexcept:
    """The table buckets (entries and head) that fit in mb megabytes."""
    return (<uint64_t>max(mb, 0) << 20) // (BUCKET * sizeof(TTEntry) + sizeof(uint32_t))


cdef inline uint64_t _bytes_of(uint64_t buckets) noexcept:
    """The memory of a table of that many buckets."""
    return buckets * (BUCKET * sizeof(TTEntry) + sizeof(uint32_t))


cdef class Solver:
    """Double-dummy solver for 3-5-8 positions (one player against the other two).

    The transposition table (``tt_mb`` megabytes) is kept between calls; results do not
    depend on its size. With ``grow_mb``, a search that fills the table with its own
    entries (half the table's worth of them given up for room within one value's search)
    makes it grow fourfold, up to ``grow_mb`` megabytes, keeping its entries: the few deals
    that need a large table get one, the rest keep the small one. Where other solvers use
    the table too (:meth:`helpers`, ``table_of``), the search stops instead
    (:attr:`grow_wanted`) for the caller to let them go (:meth:`release_helpers`,
    :meth:`detach`) and grow it (:meth:`grow`). The table is freed with the last solver
    that uses it. Every ``check_every`` nodes the search looks at Ctrl-C, the deadline and
    the node limit, and calls the progress callback.
    """
    cdef SolverState st
    cdef object __weakref__     # lets tests see that a dropped solver is freed
    cdef list _helpers          # solvers on this one's table, kept for the next threaded solve
    cdef bint busy

    def __cinit__(self, int tt_mb=64, *, int grow_mb=0, int64_t check_every=65536,
                  Solver table_of=None):
        if tt_mb < 1:
            raise ValueError(f"tt_mb must be at least 1, not {tt_mb}")
        if grow_mb and grow_mb < tt_mb:
            raise ValueError(f"grow_mb must be 0 or at least tt_mb ({tt_mb}), not {grow_mb}")
        if check_every < 1:
            raise ValueError(f"check_every must be at least 1, not {check_every}")
        # Every check takes the GIL and reads the clock: 65,536 nodes is a few milliseconds
        # of search, so a deadline is kept to about that, at no measurable cost.
        self.st.check_every = check_every
        self.st.nodes = 0
        self.busy = False
        self._helpers = []
        self.st.cut = <uint32_t*>calloc(1 << CUT_BITS, sizeof(uint32_t))
        if self.st.cut == NULL:
            raise MemoryError("cannot allocate the cut-off cache")
        if table_of is not None:
            # The table of another solver, for threads that search together.
            if table_of.st.table == NULL:
                raise ValueError("table_of has no table any more (detach)")
            self.st.table = table_of.st.table
            self.st.table.users += 1
        else:
            self.st.table = _table_new(_buckets_in(tt_mb))
            if self.st.table == NULL:
                raise MemoryError("cannot allocate the transposition table")
            self.st.table.grow_to = _buckets_in(grow_mb)
        self._attach()

    def __init__(self, int tt_mb=64, *, int grow_mb=0, int64_t check_every=65536,
                 Solver table_of=None):
        pass

    def __dealloc__(self):
        free(self.st.cut)
        self.st.cut = NULL
        if self.st.table != NULL:
            _table_release(self.st.table)
            self.st.table = NULL

    cdef void _attach(self) noexcept:
        """Copy the table's values into the search state (they change when it grows or is
        cleared, possibly through another solver)."""
        cdef Table* t = self.st.table
        if t == NULL:
            self.st.tt = NULL
            self.st.heads = NULL
            self.st.check = NULL
            self.st.tt_buckets = self.st.grow_to = 0
            return
        self.st.tt = t.tt
        self.st.heads = t.heads
        self.st.check = t.check
        self.st.tt_buckets = t.buckets
        self.st.epoch = t.epoch
        self.st.grow_to = max(t.grow_to, t.buckets)

    cdef bint _alone(self) noexcept:
        """Whether no other solver uses this one's table (it may then move: grow)."""
        return self.st.table != NULL and self.st.table.users == 1 and not self.st.shared

    @property
    def nodes(self):
        """Nodes searched since construction or the last reset_stats()."""
        return self.st.nodes

    @property
    def check_every(self):
        """Nodes between checks of Ctrl-C, the deadline, the node limit and progress."""
        return self.st.check_every

    @property
    def tt_bytes(self):
        """Bytes allocated for the transposition table now (it may have grown)."""
        return _bytes_of(self.st.table.buckets) if self.st.table != NULL else 0

    @property
    def grow_mb(self):
        """The size, in megabytes, that the table may grow to (see the class); setting it
        (0: none) changes that, never below the table's size; it is the table's, so the
        same for every solver on it."""
        self._attach()
        return _bytes_of(self.st.grow_to) >> 20

    @grow_mb.setter
    def grow_mb(self, int mb):
        if self.st.table != NULL:
            self.st.table.grow_to = _buckets_in(mb)
        self._attach()

    def helpers(self, int count):
        """This solver and ``count - 1`` helpers searching its table, for as many threads.
        The helpers are kept with this solver for the next call (and freed with it); they
        hold no reference to it, so dropping it frees them and the table."""
        if count < 1:
            raise ValueError(f"count must be at least 1, not {count}")
        if self.st.table == NULL:
            raise RuntimeError("this Solver has no table any more (detach)")
        while len(self._helpers) < count - 1:
            self._helpers.append(Solver(check_every=self.st.check_every, table_of=self))
        return [self, *self._helpers[: count - 1]]

    def release_helpers(self):
        """Let go of the helpers :meth:`helpers` made (:meth:`detach`), so that the table
        may grow; the next call of :meth:`helpers` makes new ones."""
        helpers, self._helpers = self._helpers, []
        for helper in helpers:
            helper.detach()

    def detach(self):
        """Stop using the table, so that the other solvers on it may grow it (a solver
        made with ``table_of``, or a helper); this solver cannot search any more."""
        if self.busy:
            raise RuntimeError("this Solver is already solving (use one Solver per thread)")
        self.release_helpers()
        if self.st.table != NULL:
            _table_release(self.st.table)
            self.st.table = NULL
        self._attach()

    @property
    def grow_wanted(self):
        """Whether the last search stopped for its table to grow (see the class): a table
        that threads share is grown by the caller once they have stopped (:meth:`grow`),
        and then the search is asked again."""
        return self.st.abort == 5

    def grow(self, int tt_mb=0):
        """Enlarge the table now to about ``tt_mb`` megabytes (0: to ``grow_mb``), keeping
        its entries (a size no larger than the table's leaves it as it is). Not while other
        solvers use this one's table. MemoryError if the memory cannot be had: the table
        then stays as it is, and will not grow by itself any more."""
        cdef uint64_t nb = self.st.grow_to
        if tt_mb:
            nb = _buckets_in(tt_mb)
        if self.st.table != NULL and not self._alone():
            raise RuntimeError("the table is in use by other solvers: it cannot grow")
        self._enter()
        if nb <= self.st.tt_buckets:
            self.busy = False
            return
        ok = _tt_grow(&self.st, nb)
        self.busy = False
        if not ok:
            self.st.table.grow_to = self.st.tt_buckets
            self._attach()
            raise MemoryError(
                f"cannot allocate a transposition table of {_bytes_of(nb) >> 20} MB")
        if self.st.table.grow_to < nb:
            self.st.table.grow_to = nb
        self._attach()

    def reset_stats(self):
        """Set the node counter to zero."""
        self.st.nodes = 0

    def clear(self):
        """Empty the transposition table (in constant time: buckets of earlier epochs count
        as empty; the bucket heads are zeroed once every 65535 clears)."""
        cdef Table* t
        self._enter()
        t = self.st.table
        t.epoch = (t.epoch + 1) & 0xFFFF
        if t.epoch == 0:
            memset(t.heads, 0, t.buckets * sizeof(uint32_t))
            t.epoch = 1
        self.st.epoch = t.epoch
        memset(self.st.cut, 0, (1 << CUT_BITS) * sizeof(uint32_t))
        self.busy = False

    def share(self, bint shared=True):
        """Search as one of several threads writing the same table (every solver on the
        table must be told), or (``False``) as its only user again. From the first share
        on, the table's entries carry check words (``SolverState.check``)."""
        cdef Table* t = self.st.table
        if shared and t != NULL and t.check == NULL:
            t.check = _checks_new(t.buckets)
            if t.check == NULL:
                raise MemoryError("cannot allocate the check words of a shared table")
        self.st.shared = shared
        self._attach()

    cdef int _enter(self) except -1:
        if self.busy:
            raise RuntimeError("this Solver is already solving (use one Solver per thread)")
        if self.st.table == NULL:
            raise RuntimeError("this Solver has no table any more (detach)")
        self.busy = True
        self._attach()
        return 0

    cdef int _load(self, hands, int leader, trick, int contract, int void_rule) except -1:
        """Validate a position and copy it into the search state."""
        cdef uint64_t h[3]
        cdef uint64_t seen
        cdef int i, seat, n, k, card, mover
        _check_contract(contract)
        _check_void_rule(void_rule)
        if leader < 0 or leader > 2:
            raise ValueError(f"leader must be 0-2, not {leader}")
        if len(hands) != 3:
            raise ValueError("three hands are needed")
        for i in range(3):
            x = hands[i]
            if not isinstance(x, int):
                raise TypeError(f"hand {i} must be an int card set, not {type(x).__name__}")
            if x < 0 or x.bit_length() > 64:
                raise ValueError(f"hand {i} holds bits that are not card ids")
            h[i] = x
            if h[i] & ~DECK:
                raise ValueError(f"hand {i} holds bits that are not card ids")
        if (h[0] & h[1]) or (h[0] & h[2]) or (h[1] & h[2]):
            raise ValueError("a card is in two hands")
        k = len(trick)
        if k > 2:
            raise ValueError("the trick in progress holds at most two cards")
        mover = (leader + k) % 3
        n = popcount(h[mover])
        for i in range(3):
            seat = (leader + i) % 3
            if popcount(h[seat]) != (n - 1 if i < k else n):
                raise ValueError("hand sizes do not fit the trick in progress: seats that "
                                 "have played to it hold one card fewer than the others")
        if k and n == 0:
            raise ValueError("the seat to move has no cards")
        seen = h[0] | h[1] | h[2]
        for i in range(k):
            card = trick[i]
            _check_card(card)
            if (seen >> card) & 1:
                raise ValueError(f"trick card {card} is also in a hand or played twice")
            seat = (leader + i) % 3
            # (self.st.trick holds the trick's cards before this one: the overtrump rule
            # reads them.)
            if not (legal_mask(h[seat] | ((<uint64_t>1) << card),
                               card_suit(trick[0]) if i else -1,
                               trump_of(contract), void_rule, self.st.trick, i) >> card) & 1:
                raise ValueError(f"trick card {card} is not a legal play for seat {seat}")
            seen |= (<uint64_t>1) << card
            self.st.trick[i] = card
        for i in range(3):
            self.st.hands[i] = h[i]
        memset(self.st.hist, 0, sizeof(self.st.hist))
        memset(self.st.killer, 255, sizeof(self.st.killer))
        self.st.ntrick = k
        self.st.leader = leader
        self.st.tricks_left = n
        self.st.trump = trump_of(contract)
        self.st.contract = contract
        self.st.void_rule = void_rule
        self.st.misere = contract == NO_TRICKS
        self.st.mink = 3 if self.st.misere else 1
        self.st.abort = 0
        self.st.check_at = self.st.nodes + self.st.check_every
        return 0

    cdef void _set_player(self, int player) noexcept nogil:
        cdef int vr = self.st.void_rule if self.st.trump >= 0 else 0
        self.st.player = player
        # key bits 44-49: player (2) | contract (3) | void rule's low bit; leader at 50-51;
        # the top owners at 52-59 (_boundary_key); the void rule's high bit (overtrump) at 63,
        # above them, so that the house and kurnik keys, and so their hashes and the
        # table's layout, are those of the two-rule key (entries keep bits 0-51 and 63:
        # CHECK). The void rule counts only with a trump suit: without one all play alike.
        self.st.meta = ((<uint64_t>(player | (self.st.contract << 2) | ((vr & 1) << 5)) << 44)
                        | (<uint64_t>(vr >> 1) << 63))

    def stop(self, bint stop=True):
        """Ask a search running in another thread to stop at its next check and answer with
        the bounds it proved, as at a deadline (Python delivers Ctrl-C to the main thread
        only: a caller waiting there stops the searches of its worker threads with this).
        The request holds for every later search until ``stop(False)``."""
        self.st.stop_requested = stop

    cdef void _limits(self, int64_t max_nodes, double deadline, progress) noexcept:
        # A node budget is deterministic (the same stop on any machine); a deadline is not.
        # progress is a borrowed reference: the caller's argument keeps it alive.
        self.st.node_limit = self.st.nodes + max_nodes if max_nodes > 0 else 0
        self.st.deadline = deadline if deadline > 0 else 0
        self.st.progress = <PyObject*>progress if progress is not None else NULL
        self.st.cur_card = -1
        self.st.cur_won = 0
        self.st.team = NULL

    cdef int _leave(self) except -1:
        """End a call: a signal or an error in the progress callback is raised; a node
        limit or a deadline is not (the caller answers with bounds)."""
        self.busy = False
        self.st.progress = NULL
        if self.st.abort == 1:
            if PyErr_Occurred() != NULL:
                return -1
            raise KeyboardInterrupt
        return 0

    cdef str _stop_reason(self):
        if self.st.abort == 5:
            return f"the table is to grow (grow_wanted) after {self.st.nodes} nodes"
        if self.st.abort == 3:
            return f"the deadline was reached after {self.st.nodes} nodes"
        return f"the node limit was reached after {self.st.nodes} nodes"

    cdef int _start(self, hands, int leader, trick, int contract, int void_rule,
                    int64_t max_nodes, double deadline, progress) except -1:
        self._enter()
        try:
            self._load(hands, leader, trick, contract, void_rule)
        except BaseException:
            self.busy = False
            raise
        self._limits(max_nodes, deadline, progress)
        # The table moves when it grows: the search grows it only where no other solver
        # holds its address; elsewhere the search stops for the caller to grow it, the other
        # solvers let go (grow_wanted; see the class).
        self.st.evicted = 0
        self.st.grow_at = 0
        self.st.grow_here = self._alone()
        if (self.st.tt_buckets < self.st.grow_to
                and (self.st.deadline == 0 or self.st.deadline - _monotonic() >= GROW_MARGIN)):
            self.st.grow_at = <int64_t>(self.st.tt_buckets * BUCKET // 2)
        return 0

    cdef int _join(self, Team team) except -1:
        """Search as one thread of the team (after _start): the team's first search fixes
        its position, which every other must share (its proven values are of that one)."""
        cdef uint64_t mine = _team_position(&self.st)
        cdef int i
        if not ts_cas64(&team.ts.position, 0, mine) and team.ts.position != mine:
            self._leave()
            raise ValueError("a Team searches one position: reset() it for another")
        self.st.team = team.ts
        # The thread's row of the team's arrays of answers (_team_answered): its own from
        # an earlier search of this team, else a free one.
        self.st.member = -1
        for i in range(TEAM_MEMBERS):
            if (team.ts.member[i] == <uint64_t>&self.st
                    or ts_cas64(&team.ts.member[i], 0, <uint64_t>&self.st)):
                self.st.member = i
                break
        # The table grows once the team's searches have filled it: each thread gives up
        # its share of the entries.
        self.st.grow_at = self.st.grow_at // team.threads

    def bounds(self, hands, int leader, trick, int contract, int void_rule, int player,
               *, int64_t max_nodes=0, double deadline=0, progress=None, Team team=None):
        """``(lo, hi)`` with lo <= the player's value <= hi (see :meth:`value`); exact when
        lo == hi, which it always is without a limit.

        The search stops after ``max_nodes`` more nodes (0: no limit) or once
        ``time.monotonic()`` reaches ``deadline`` (0: none), both looked at every 65,536
        nodes, and then answers with the bounds it proved. ``progress``, if given, is
        called at those checks as ``progress(nodes, -1, lo, hi)``. What the table holds
        stays valid: asking again goes on from what was learnt. ``team``: this solver is
        one of the threads searching this value together (see :class:`Team`); it answers
        with what the team proved.
        """
        cdef int v
        if player < 0 or player > 2:
            raise ValueError(f"player must be 0-2, not {player}")
        self._start(hands, leader, trick, contract, void_rule, max_nodes, deadline, progress)
        self._set_player(player)
        if team is not None:
            self._join(team)
            self.st.team_slot = 64 + player
        with nogil:
            v = _solve_value(&self.st)
        self._leave()
        if self.st.abort:
            return (self.st.cur_lo, self.st.cur_hi)
        return (v, v)

    def value(self, hands, int leader, trick, int contract, int void_rule, int player,
              *, int64_t max_nodes=0, double deadline=0):
        """The player's double-dummy value from this position on (trick in progress counts).

        Trump and no-trump: most tricks the player can guarantee against the other two.
        No-tricks: fewest tricks the player can guarantee not to exceed. Stopped by
        ``max_nodes`` or ``deadline`` (see :meth:`bounds`): SearchLimit, with the bounds.
        """
        lo, hi = self.bounds(hands, leader, trick, contract, void_rule, player,
                             max_nodes=max_nodes, deadline=deadline)
        if lo != hi:
            raise SearchLimit(self._stop_reason(), (lo, hi))
        return lo

    def move_bounds(self, hands, int leader, trick, int contract, int void_rule,
                    *, int64_t max_nodes=0, double deadline=0, progress=None,
                    int64_t per_card=0, uint64_t only=0, Team team=None, double start=0):
        """``(card id, lo, hi)`` for every legal card, ascending card id: lo <= the mover's
        value after playing it <= hi. Limits as in :meth:`bounds`, for all the cards
        together (a card not reached gets the bounds of no search); ``per_card`` (if not 0)
        is also a node budget for each card's search alone, and ``only`` (if not 0) a card
        set outside which cards are not searched (they get the bounds of no search).
        ``progress`` is called as ``progress(nodes, card, lo, hi)``. ``team``: this solver
        is one of the threads searching these cards together (see :class:`Team`); each
        card's bounds are what the team proved of it. ``start`` (0 <= start < 1): the
        searches begin at the card that far through the cards to search, in ascending
        order, and go round (threads of a team begin at different cards, and end together
        on the last cards)."""
        cdef SolverState* st = &self.st
        cdef int nt, mover, L, card, w, i, j, nreps, nsearch, first, saved_left, v, t0, t1
        cdef int won, lo, hi
        cdef int64_t limit
        cdef uint64_t inplay, legal, reps, hand, bit, legal_left
        cdef int repcards[16]
        cdef int replo[16]
        cdef int rephi[16]
        if not 0 <= start < 1:
            raise ValueError(f"start must be at least 0 and below 1, not {start}")
        self._start(hands, leader, trick, contract, void_rule, max_nodes, deadline, progress)
        if team is not None:
            self._join(team)
        nt = st.ntrick
        L = st.leader
        mover = (L + nt) % 3
        t0 = st.trick[0]
        t1 = st.trick[1]
        hand = st.hands[mover]
        if hand == 0:
            self._leave()
            return []
        self._set_player(mover)
        inplay = st.hands[0] | st.hands[1] | st.hands[2]
        for i in range(nt):
            inplay |= (<uint64_t>1) << st.trick[i]
        legal = legal_mask(hand, card_suit(st.trick[0]) if nt else -1, st.trump, st.void_rule,
                           st.trick, nt)
        reps = _run_tops(hand, DECK & ~inplay) & legal
        nreps = 0
        nsearch = 0
        while reps:
            card = lowest_card(reps)
            reps &= reps - 1
            repcards[nreps] = card
            nreps += 1
            if not only or (only >> card) & 1:
                nsearch += 1
        # The first card searched: the one `start` of the way through those to search.
        first = 0
        j = <int>(start * nsearch)
        for i in range(nreps):
            if not only or (only >> repcards[i]) & 1:
                if j == 0:
                    first = i
                    break
                j -= 1
        limit = st.node_limit
        with nogil:
            for j in range(nreps):
                i = first + j
                if i >= nreps:
                    i -= nreps
                card = repcards[i]
                bit = (<uint64_t>1) << card
                st.team_slot = card
                st.hands[mover] ^= bit
                st.trick[nt] = card
                st.cur_card = card
                won = 0
                if only and not (only & bit):
                    st.abort = st.abort or 4    # not searched: the bounds of no search
                elif per_card > 0 and (limit == 0 or st.nodes + per_card < limit):
                    st.node_limit = st.nodes + per_card
                if nt == 2:
                    # The card completes the trick: the rest is a new position.
                    w = (L + trick_winner_c(st.trick, 3, st.trump)) % 3
                    won = w == mover
                    st.cur_won = won
                    saved_left = st.tricks_left
                    st.leader = w
                    st.ntrick = 0
                    st.tricks_left = saved_left - 1
                    lo = 0
                    hi = st.tricks_left
                    if not st.abort:
                        v = _solve_value(st)
                        if st.abort:
                            lo = st.cur_lo
                            hi = st.cur_hi
                        else:
                            lo = v
                            hi = v
                    st.tricks_left = saved_left
                    st.leader = L
                    st.ntrick = 2
                    st.trick[0] = t0
                    st.trick[1] = t1
                else:
                    st.ntrick = nt + 1
                    lo = 0
                    hi = st.tricks_left
                    if not st.abort:
                        v = _solve_value(st)
                        if st.abort:
                            lo = st.cur_lo
                            hi = st.cur_hi
                        else:
                            lo = v
                            hi = v
                    st.ntrick = nt
                st.hands[mover] ^= bit
                st.cur_won = 0
                replo[i] = lo + won
                rephi[i] = hi + won
                # A card's own budget or a card left out stops only that card.
                st.node_limit = limit
                if st.abort == 4 or (st.abort == 2 and (limit == 0 or st.nodes < limit)):
                    st.abort = 0
        self._leave()
        out = []
        i = 0
        legal_left = legal
        while legal_left:
            card = lowest_card(legal_left)
            legal_left &= legal_left - 1
            while repcards[i] < card:
                i += 1
            out.append((card, replo[i], rephi[i]))
        return out

    def move_values(self, hands, int leader, trick, int contract, int void_rule,
                    *, int64_t max_nodes=0, double deadline=0):
        """(card id, mover's value after playing it) for every legal card, ascending card id.
        Stopped by ``max_nodes`` or ``deadline``: SearchLimit, with the per-card bounds."""
        out = self.move_bounds(hands, leader, trick, contract, void_rule,
                               max_nodes=max_nodes, deadline=deadline)
        if any(lo != hi for _, lo, hi in out):
            raise SearchLimit(self._stop_reason(), out)
        return [(card, lo) for card, lo, _ in out]
