// More Google Benchmark kernels for patternalg's reader tests (see README.md beside this file).
#include <benchmark/benchmark.h>
#include <algorithm>
#include <numeric>
#include <random>
#include <vector>
#include <cmath>
#include <string>
#include <chrono>
#include <thread>

static std::vector<int> shuffled(std::size_t n) {
  std::vector<int> v(n); std::iota(v.begin(), v.end(), 0);
  std::shuffle(v.begin(), v.end(), std::mt19937(42)); return v;
}
static void BM_sort(benchmark::State& state) {
  const auto input = shuffled(state.range(0));
  std::vector<int> v(input.size());
  for (auto _ : state) { std::copy(input.begin(), input.end(), v.begin()); std::sort(v.begin(), v.end()); benchmark::DoNotOptimize(v.data()); }
  state.SetComplexityN(state.range(0));
  state.counters["bytes"] = input.size()*4;
  state.counters["rate"] = benchmark::Counter(state.range(0), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_sort)->RangeMultiplier(2)->Range(1<<10, 1<<16)->Complexity(benchmark::oNLogN)->Unit(benchmark::kMicrosecond);

static void BM_sum(benchmark::State& state) {
  std::vector<long> v(state.range(0), 1);
  for (auto _ : state) { long s=0; for (long x : v) { s += x; benchmark::DoNotOptimize(s);} }
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_sum)->DenseRange(1000, 8000, 1000)->Complexity([](benchmark::IterationCount n){return double(n);})->UseRealTime()->Unit(benchmark::kMillisecond);

static void BM_grid(benchmark::State& state) {
  std::vector<long> v(state.range(0)*state.range(1), 1);
  for (auto _ : state) { benchmark::DoNotOptimize(std::accumulate(v.begin(), v.end(), 0L)); }
}
BENCHMARK(BM_grid)->ArgNames({"n","m"})->Ranges({{1<<8, 1<<12}, {1, 8}});

template <typename T> static void BM_tsum(benchmark::State& state) {
  std::vector<T> v(state.range(0), T(1));
  for (auto _ : state) { benchmark::DoNotOptimize(std::accumulate(v.begin(), v.end(), T(0))); }
}
BENCHMARK_TEMPLATE(BM_tsum, int)->Arg(1024)->Arg(4096)->Arg(16384);
BENCHMARK_TEMPLATE(BM_tsum, double)->Arg(1024)->Arg(4096)->Arg(16384);

static void BM_cap(benchmark::State& state, int mult) {
  std::vector<long> v(state.range(0)*mult, 1);
  for (auto _ : state) { benchmark::DoNotOptimize(std::accumulate(v.begin(), v.end(), 0L)); }
}
BENCHMARK_CAPTURE(BM_cap, double_size, 2)->Arg(1000)->Arg(2000)->Arg(4000);
BENCHMARK_CAPTURE(BM_cap, single, 1)->Arg(1000)->Arg(2000)->Arg(4000);

static void BM_thr(benchmark::State& state) {
  std::vector<long> v(state.range(0), 1);
  for (auto _ : state) { benchmark::DoNotOptimize(std::accumulate(v.begin(), v.end(), 0L)); }
}
BENCHMARK(BM_thr)->Arg(1<<10)->Arg(1<<12)->Arg(1<<14)->Threads(1)->Threads(2)->UseRealTime();

static void BM_named(benchmark::State& state) {
  std::vector<long> v(state.range(0), 1);
  for (auto _ : state) { benchmark::DoNotOptimize(std::accumulate(v.begin(), v.end(), 0L)); }
}
BENCHMARK(BM_named)->Name("io/read/blocks")->Arg(100)->Arg(200)->Arg(400);

static void BM_err(benchmark::State& state) {
  if (state.range(0) == 300) { state.SkipWithError("bad size"); }
  for (auto _ : state) { benchmark::DoNotOptimize(state.range(0)); }
}
BENCHMARK(BM_err)->Arg(100)->Arg(200)->Arg(300)->Arg(400);

static void BM_iters(benchmark::State& state) {
  std::vector<long> v(state.range(0), 1);
  for (auto _ : state) { benchmark::DoNotOptimize(std::accumulate(v.begin(), v.end(), 0L)); }
}
BENCHMARK(BM_iters)->Arg(1000)->Arg(2000)->Arg(4000)->Iterations(500);

static void BM_neg(benchmark::State& state) {
  for (auto _ : state) { benchmark::DoNotOptimize(state.range(0)); }
}
BENCHMARK(BM_neg)->DenseRange(-2, 2, 1);

BENCHMARK_MAIN();
