// Tiny Google Benchmark kernels for patternalg's reader tests (see README.md beside this file).
#include <benchmark/benchmark.h>
#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

static std::vector<int> shuffled(std::size_t n) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), 0);
  std::shuffle(v.begin(), v.end(), std::mt19937(42));
  return v;
}

static void BM_sort(benchmark::State& state) {
  const auto input = shuffled(static_cast<std::size_t>(state.range(0)));
  std::vector<int> v(input.size());
  for (auto _ : state) {
    std::copy(input.begin(), input.end(), v.begin());  // linear: small beside the sort
    std::sort(v.begin(), v.end());
    benchmark::DoNotOptimize(v.data());
  }
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_sort)->RangeMultiplier(4)->Range(1 << 14, 1 << 22)->Complexity(benchmark::oNLogN);

static void BM_pass(benchmark::State& state) {
  std::vector<long> v(static_cast<std::size_t>(state.range(0)), 1);
  for (auto _ : state) {
    long sum = 0;
    for (long x : v) { sum += x; benchmark::DoNotOptimize(sum); }
  }
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_pass)->RangeMultiplier(4)->Range(1 << 14, 1 << 22)->Complexity();

static void BM_fill(benchmark::State& state) {
  std::vector<int> v(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    std::fill(v.begin(), v.end(), static_cast<int>(state.range(1)));
    benchmark::DoNotOptimize(v.data());
  }
}
BENCHMARK(BM_fill)->Args({1 << 12, 1})->Args({1 << 14, 1})->Args({1 << 12, 2})->Threads(1)->Threads(2);

static void BM_scan(benchmark::State& state) {
  std::vector<long> v(static_cast<std::size_t>(state.range(0)), 1);
  for (auto _ : state) {
    benchmark::DoNotOptimize(std::accumulate(v.begin(), v.end(), 0L));
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_scan)->RangeMultiplier(4)->Range(1 << 12, 1 << 20);

BENCHMARK_MAIN();
