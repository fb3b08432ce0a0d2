// Real measurements of paper 001's atoms and pattern compositions (C++17, std::thread only).
//
// A data element is an array of x ints. A stream of N arrays (N = max(16, 2^22 / x), so
// every stream carries 4 Mi ints; distinct random arrays) flows through a term of
// patternalg's language:
//
//   nop            returns the array unchanged
//   inc            ten passes of +1 over the array
//   qsort          a recursive quicksort (Hoare partition, middle pivot)
//   seq(A, B)      one thread applies A, then B, to each array (A and B sequential)
//   pipe(A, B)     A and B run concurrently (one thread per stage), a queue between them
//   tpool_n(A)     n instances of A take arrays from one shared queue
//
// The value is the average time per data element in the steady state (ns), timed over
// whole rounds of the widest pool (w: the most threads taking arrays from one queue,
// tpool_4(qsort): 4): a stream holds a whole number R of rounds of w arrays, at least N
// arrays and at least MIN_TIMED_ROUNDS + 1 rounds; the clock runs from the completion of
// the last array of round max(1, R/4) to that of the last array, divided by the arrays
// completed in between, so that filling and draining the pipeline do not count and a
// pool's first round (w arrays finishing together) is never cut. Atoms are timed the
// same way, as a one-stage stream (w = 1: as before, from array N/4). An array's
// completion is the time the thread that finished it handed it on (stamped in the queue),
// not the time the main thread saw it: with more threads than cores the main thread waits
// for a core too, saw the round that opens the window late and made a pool of more threads
// than cores look faster than its cores can be (tpool_8(inc) on 2 cores: 5 times inc).
// The main thread is no part of the stream (the observer): it queues every array before the
// term starts and reads the stamps after the term's threads have ended. Until data18 it
// popped each finished array as it came, so the term's last stage woke it once per array
// and it ran beside the term: on a 2-core VM that made qsort 29 % and inc 75 % slower at
// x = 1,024 (a per-array cost of about 11 and 1.6 us that no composition pays once per atom).
//
// A term of nop alone never reads or writes its arrays, so its stream may pass one array
// many times: it is lengthened (whole rounds, the same arrays over again) until its timed
// window lasts MIN_WINDOW_NS. Its 4 Mi ints made nop's stream last 0.7 to 200 us, too short
// for the steady state of a pool: tpool_2(nop) measured 50 to 900 ns per array from run to
// run at one size (the threads' start and their first contention for the queue), rising and
// falling with x; in streams of a millisecond or more it is 48 to 96 ns (1 to 2 times nop)
// at every size (2026-12-03, data21). Every other term's window lasts milliseconds and is
// not changed (its arrays stay distinct).
//
// Within a repetition every term is measured at one size before the next size, in an order
// drawn anew (seeded) for each repetition and size.
//
// usage: patterns OUTDIR REPETITIONS SIZES... -- TERM...   (see run.sh)
// writes OUTDIR/atoms.txt, OUTDIR/compositions.txt (Extra-P text files, every repetition
// on the DATA line of its size) and OUTDIR/load.txt (/proc/loadavg per repetition).

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using Array = std::vector<int>;
using Clock = std::chrono::steady_clock;

// every stream carries this many ints (at least 16 arrays)
static const size_t STREAM_INTS = size_t(1) << 22;
// a sample times streams until their steady states add up to this (at most MAX_STREAMS)
static const double MIN_SAMPLE_NS = 0.2e9;
static const int MAX_STREAMS = 16;
// the timed window holds at least this many rounds of the widest pool
static const size_t MIN_TIMED_ROUNDS = 4;
// a term of nop alone is timed over at least this long a window (see the header: nop)
static const double MIN_WINDOW_NS = 1e6;
// and over at most this many arrays per stream (pointers: 8 MiB)
static const size_t MAX_DATA_FREE_ARRAYS = size_t(1) << 20;

// ---------------------------------------------------------------- atoms

static void nop(Array &) {}

static void inc(Array &a) {
    for (int pass = 0; pass < 10; ++pass) {
        for (int &v : a) v += 1;
        asm volatile("" ::: "memory");  // ten real passes: no fusing into one +10
    }
}

static void quicksort(int *lo, int *hi) {  // sorts [lo, hi]
    if (lo >= hi) return;
    int pivot = lo[(hi - lo) / 2];
    int *i = lo - 1, *j = hi + 1;
    for (;;) {
        do ++i; while (*i < pivot);
        do --j; while (*j > pivot);
        if (i >= j) break;
        std::swap(*i, *j);
    }
    quicksort(lo, j);
    quicksort(j + 1, hi);
}

static void qsort_atom(Array &a) {
    if (!a.empty()) quicksort(a.data(), a.data() + a.size() - 1);
}

// ---------------------------------------------------------------- the stream

// An unbounded queue of arrays that closes when its last producer is done. Producers
// register before any consumer starts (Term::start does so on the main thread). Each array
// is stamped with the time it was pushed, by the thread that pushed it (under the lock, so
// the stamps are in the queue's order): the stream's clock reads the stamps, not the time
// the main thread got round to popping, which on a machine with more threads than cores
// can be milliseconds late (it waits for a core like every other thread).
class Queue {
  public:
    void add_producer() {
        std::lock_guard<std::mutex> lock(m_);
        ++producers_;
    }
    void push(Array *a) {
        {
            std::lock_guard<std::mutex> lock(m_);
            q_.push_back({a, Clock::now()});
        }
        cv_.notify_one();
    }
    bool pop(Array *&a, Clock::time_point *pushed = nullptr) {  // false: closed and empty
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait(lock, [this] { return !q_.empty() || producers_ == 0; });
        if (q_.empty()) return false;
        a = q_.front().first;
        if (pushed) *pushed = q_.front().second;
        q_.pop_front();
        return true;
    }
    void producer_done() {
        {
            std::lock_guard<std::mutex> lock(m_);
            --producers_;
        }
        cv_.notify_all();
    }

  private:
    std::mutex m_;
    std::condition_variable cv_;
    std::deque<std::pair<Array *, Clock::time_point>> q_;
    int producers_ = 0;
};

// A term of the language: sequential terms (atoms, seq) are functions, the others start threads.
struct Term {
    enum Kind { ATOM, SEQ, PIPE, TPOOL } kind;
    std::string atom;
    int n = 0;
    std::unique_ptr<Term> a, b;

    // whether an atom of the term reads or writes its arrays (all but nop do)
    bool touches() const {
        if (kind == ATOM) return atom != "nop";
        return a->touches() || (b && b->touches());
    }
    bool sequential() const {
        return kind == ATOM || (kind == SEQ && a->sequential() && b->sequential());
    }
    std::function<void(Array &)> function() const {
        if (kind == ATOM) {
            if (atom == "nop") return nop;
            if (atom == "inc") return inc;
            return qsort_atom;
        }
        auto f = a->function(), g = b->function();
        return [f, g](Array &x) { f(x); g(x); };
    }
    // the most threads that take arrays from one queue (a round of the stream)
    size_t width() const {
        switch (kind) {
            case PIPE: return std::max(a->width(), b->width());
            case TPOOL: return size_t(n) * a->width();
            default: return 1;
        }
    }
    std::string text() const {
        switch (kind) {
            case ATOM: return atom;
            case SEQ: return "seq(" + a->text() + ", " + b->text() + ")";
            case PIPE: return "pipe(" + a->text() + ", " + b->text() + ")";
            default: return "tpool_" + std::to_string(n) + "(" + a->text() + ")";
        }
    }
    // Start the threads of one instance reading `in` and writing `out`.
    void start(Queue &in, Queue &out, std::vector<std::thread> &threads,
               std::vector<std::unique_ptr<Queue>> &queues) const {
        if (sequential()) {
            auto f = function();
            out.add_producer();
            threads.emplace_back([f, &in, &out] {
                Array *x;
                while (in.pop(x)) {
                    f(*x);
                    out.push(x);
                }
                out.producer_done();
            });
        } else if (kind == PIPE) {
            queues.push_back(std::make_unique<Queue>());
            Queue &mid = *queues.back();
            a->start(in, mid, threads, queues);
            b->start(mid, out, threads, queues);
        } else if (kind == TPOOL) {
            for (int i = 0; i < n; ++i) a->start(in, out, threads, queues);  // one queue
        } else {
            throw std::runtime_error("seq of a parallel term is not supported: " + text());
        }
    }
};

class Parser {
  public:
    explicit Parser(std::string s) : s_(std::move(s)) {}
    std::unique_ptr<Term> parse() {
        auto t = term();
        skip();
        if (i_ != s_.size()) fail("end of term");
        return t;
    }

  private:
    std::string s_;
    size_t i_ = 0;
    void skip() {
        while (i_ < s_.size() && s_[i_] == ' ') ++i_;
    }
    [[noreturn]] void fail(const std::string &what) {
        throw std::runtime_error("term '" + s_ + "' column " + std::to_string(i_ + 1) +
                                 ": expected " + what);
    }
    void expect(char c) {
        skip();
        if (i_ >= s_.size() || s_[i_] != c) fail(std::string("'") + c + "'");
        ++i_;
    }
    std::string word() {
        skip();
        size_t start = i_;
        while (i_ < s_.size() && (isalnum((unsigned char)s_[i_]) || s_[i_] == '_')) ++i_;
        return s_.substr(start, i_ - start);
    }
    std::unique_ptr<Term> term() {
        auto t = std::make_unique<Term>();
        std::string w = word();
        if (w == "nop" || w == "inc" || w == "qsort") {
            t->kind = Term::ATOM;
            t->atom = w;
        } else if (w == "seq" || w == "pipe") {
            t->kind = w == "seq" ? Term::SEQ : Term::PIPE;
            expect('(');
            t->a = term();
            expect(',');
            t->b = term();
            expect(')');
            if (t->kind == Term::SEQ && !t->sequential()) fail("sequential terms inside seq");
        } else if (w.rfind("tpool_", 0) == 0 && w.size() > 6) {
            t->kind = Term::TPOOL;
            t->n = std::stoi(w.substr(6));
            if (t->n < 1) fail("tpool_n with n >= 1");
            expect('(');
            t->a = term();
            expect(')');
        } else {
            fail("nop, inc, qsort, seq(, pipe( or tpool_n(");
        }
        return t;
    }
};

// The stream of a term at size x: `count` arrays, the clock started at the completion of
// array `warm` (both whole rounds of the term's widest pool).
struct Window {
    size_t count, warm;
};

static Window window(const Term &term, size_t x) {
    size_t w = term.width();
    size_t wanted = std::max<size_t>(16, STREAM_INTS / x);
    size_t rounds = std::max((wanted + w - 1) / w, MIN_TIMED_ROUNDS + 1);
    size_t warm_rounds = std::max<size_t>(1, rounds / 4);
    if (rounds - warm_rounds < MIN_TIMED_ROUNDS) rounds = warm_rounds + MIN_TIMED_ROUNDS;
    return {rounds * w, warm_rounds * w};
}

// (steady-state ns, arrays counted) of one stream of `count` arrays of size x through
// `term`, timed from the completion of array `warm`; the arrays are distinct slices of
// `master` (random ints; one array repeated would let the branch predictor learn
// quicksort's comparisons at small x), copied before the clock starts, but for a term that
// touches no array (nop alone), whose stream passes its `distinct` arrays over again
static std::pair<double, size_t> stream(const Term &term, const Array &master, size_t x,
                                        size_t count, size_t warm, size_t distinct) {
    std::vector<Array> pool(std::min(count, distinct));
    for (size_t i = 0; i < pool.size(); ++i) {
        size_t at = (i * x) % (master.size() - x + 1);
        pool[i].assign(master.begin() + at, master.begin() + at + x);
    }
    // the whole stream is queued before the term starts, and the main thread reads the
    // stamps only after the term's threads have ended: while the term runs it takes no core
    // and wakes no thread (see the header: the observer)
    Queue in, out;
    in.add_producer();
    for (size_t i = 0; i < count; ++i) in.push(&pool[i % pool.size()]);
    in.producer_done();
    std::vector<std::thread> threads;
    std::vector<std::unique_ptr<Queue>> queues;
    term.start(in, out, threads, queues);
    for (auto &t : threads) t.join();
    std::vector<Clock::time_point> done;
    done.reserve(count);
    Array *finished;
    Clock::time_point stamp;
    while (out.pop(finished, &stamp)) done.push_back(stamp);  // when the term finished it
    if (done.size() != count) throw std::runtime_error("lost arrays in " + term.text());
    std::chrono::duration<double, std::nano> span = done.back() - done[warm - 1];
    return {span.count(), count - warm};
}

// The window of a term of nop alone whose first stream (`win`) was timed over `span` ns:
// whole rounds, enough for MIN_WINDOW_NS at that pace (at most MAX_DATA_FREE_ARRAYS)
static Window lengthened(const Term &term, Window win, double span) {
    if (term.touches() || span >= MIN_WINDOW_NS) return win;
    size_t w = term.width(), timed = win.count - win.warm;
    double per = std::max(span, 1.0) / double(timed);
    size_t wanted = std::min<size_t>(MAX_DATA_FREE_ARRAYS, size_t(MIN_WINDOW_NS / per) + 1);
    size_t rounds = (wanted + w - 1) / w * 4 / 3 + 1;  // a quarter of them warm
    size_t warm_rounds = std::max<size_t>(1, rounds / 4);
    return {rounds * w, warm_rounds * w};
}

// One sample: ns per data element and the arrays per stream. Streams through `term` until
// their steady states add up to MIN_SAMPLE_NS (at most MAX_STREAMS), so that a light term
// (inc, nop) is timed over as long a stretch as qsort is and one short burst of other load
// does not make its sample; a term of nop alone over streams lengthened after the first
static std::pair<double, size_t> measure(const Term &term, const Array &master, size_t x) {
    Window first = window(term, x), win = first;
    double ns = 0;
    size_t arrays = 0;
    for (int s = 0; s < MAX_STREAMS && (s == 0 || ns < MIN_SAMPLE_NS); ++s) {
        auto [span, counted] = stream(term, master, x, win.count, win.warm, first.count);
        if (s == 0) {
            win = lengthened(term, first, span);
            if (win.count != first.count) continue;  // the first stream was a pilot
        }
        ns += span;
        arrays += counted;
    }
    return {ns / double(arrays), win.count};
}

static void self_test() {
    Array a = {5, 3, 9, 1, 1, 7, 0, -2};
    Array sorted = a;
    std::sort(sorted.begin(), sorted.end());
    qsort_atom(a);
    inc(a);
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i] != sorted[i] + 10) throw std::runtime_error("self test: qsort or inc is wrong");
}

static std::string loadavg() {
    std::ifstream f("/proc/loadavg");
    std::string a, b, c;
    f >> a >> b >> c;
    return a + " " + b + " " + c;
}

static void write_file(const std::string &path, const std::vector<size_t> &sizes,
                       const std::vector<std::string> &names,
                       const std::vector<std::vector<std::vector<double>>> &values) {
    std::ofstream f(path);
    f << "PARAMETER x\nPOINTS";
    for (size_t x : sizes) f << " (" << x << ")";
    f << "\nMETRIC time\n";
    char buf[64];
    for (size_t t = 0; t < names.size(); ++t) {
        f << "REGION " << names[t] << "\n";
        for (size_t s = 0; s < sizes.size(); ++s) {
            f << "DATA";
            for (double v : values[t][s]) {
                snprintf(buf, sizeof buf, " %.1f", v);
                f << buf;
            }
            f << "\n";
        }
    }
}

int main(int argc, char **argv) {
    try {
        self_test();
        if (argc < 5) throw std::runtime_error("usage: patterns OUTDIR REPS SIZE... -- TERM...");
        std::string outdir = argv[1];
        int reps = std::stoi(argv[2]);
        std::vector<size_t> sizes;
        int k = 3;
        for (; k < argc && std::string(argv[k]) != "--"; ++k) sizes.push_back(std::stoul(argv[k]));
        std::vector<std::unique_ptr<Term>> terms;
        for (++k; k < argc; ++k) terms.push_back(Parser(argv[k]).parse());
        std::vector<std::string> names;
        for (auto &t : terms) names.push_back(t->text());

        std::mt19937 rng(12345);
        Array master(std::max<size_t>(STREAM_INTS, *std::max_element(sizes.begin(), sizes.end())));
        for (int &v : master) v = int(rng() % 1000000000u);
        std::vector<std::vector<std::vector<double>>> values(
            terms.size(), std::vector<std::vector<double>>(sizes.size()));
        std::ofstream load(outdir + "/load.txt");
        load << "# /proc/loadavg (1, 5, 15 min) before each repetition\n";
        // repetitions outermost: a burst of load from elsewhere hits every term alike; within
        // one, every term at one size back to back, so that the atoms and the compositions
        // the rules compare them with are measured in the same state of the machine; in an
        // order drawn anew for each repetition and size (seeded: a run is reproducible), so
        // that what a place in the order brings (the heap and the caches as the term before
        // left them) varies from repetition to repetition instead of biasing one term: in a
        // fixed order `inc` alone was 29 to 55 % slower than `tpool_1(inc)`, the same code,
        // at x = 8,192 in every repetition of data16
        // the arrays per stream each term had at each size (the most over the repetitions)
        std::vector<std::vector<size_t>> longest(terms.size(), std::vector<size_t>(sizes.size()));
        std::vector<size_t> order(terms.size());
        for (size_t t = 0; t < order.size(); ++t) order[t] = t;
        for (int r = 0; r < reps; ++r) {
            load << "repetition " << r << ": " << loadavg() << "\n" << std::flush;
            std::cerr << "repetition " << r + 1 << "/" << reps << " load " << loadavg() << "\n";
            for (size_t s = 0; s < sizes.size(); ++s) {
                std::mt19937 shuffler(unsigned(1000003 * r + s));
                std::shuffle(order.begin(), order.end(), shuffler);
                for (size_t t : order) {
                    auto [ns, count] = measure(*terms[t], master, sizes[s]);
                    values[t][s].push_back(ns);
                    longest[t][s] = std::max(longest[t][s], count);
                }
            }
        }
        {  // what the timing window was, per term (run.sh's machine.txt gets it)
            std::ofstream f(outdir + "/window.txt");
            f << "# per term: the widest pool w; per size x: arrays per stream / timed from "
                 "the completion of array k (whole rounds of w)\n";
            for (size_t t = 0; t < terms.size(); ++t) {
                f << terms[t]->text() << ": w = " << terms[t]->width() << ";";
                for (size_t s = 0; s < sizes.size(); ++s) {
                    Window win = window(*terms[t], sizes[s]);
                    f << " " << sizes[s] << ": " << win.count << "/" << win.warm;
                    if (longest[t][s] != win.count) f << " (lengthened: up to " << longest[t][s] << ")";
                }
                f << "\n";
            }
        }
        load << "after: " << loadavg() << "\n";
        std::vector<std::string> atom_names, comp_names;
        std::vector<std::vector<std::vector<double>>> atom_values, comp_values;
        for (size_t t = 0; t < terms.size(); ++t) {
            bool atom = terms[t]->kind == Term::ATOM;
            (atom ? atom_names : comp_names).push_back(names[t]);
            (atom ? atom_values : comp_values).push_back(values[t]);
        }
        write_file(outdir + "/atoms.txt", sizes, atom_names, atom_values);
        write_file(outdir + "/compositions.txt", sizes, comp_names, comp_values);
    } catch (const std::exception &e) {
        std::cerr << "patterns: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
