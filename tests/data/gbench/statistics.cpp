// A Google Benchmark family with a statistic of its own (ComputeStatistics), for patternalg's reader tests.
#include <benchmark/benchmark.h>
#include <algorithm>
#include <numeric>
#include <vector>

static void BM_acc(benchmark::State& state) {
  std::vector<long> v(static_cast<std::size_t>(state.range(0)), 1);
  for (auto _ : state) benchmark::DoNotOptimize(std::accumulate(v.begin(), v.end(), 0L));
}
BENCHMARK(BM_acc)->RangeMultiplier(4)->Range(1 << 10, 1 << 14)->Repetitions(3)->ComputeStatistics(
    "max", [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); });

BENCHMARK_MAIN();
