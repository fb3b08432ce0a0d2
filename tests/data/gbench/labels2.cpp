#include <benchmark/benchmark.h>
#include <vector>
#include <numeric>
static void BM_lab(benchmark::State& s){ std::vector<long> v(s.range(0),1);
  for (auto _: s) benchmark::DoNotOptimize(std::accumulate(v.begin(), v.end(), 0L));
  s.SetLabel("dense");
}
BENCHMARK(BM_lab)->RangeMultiplier(4)->Range(1<<10, 1<<16);
static void BM_lab2(benchmark::State& s){ std::vector<long> v(s.range(0),1);
  for (auto _: s) benchmark::DoNotOptimize(std::accumulate(v.begin(), v.end(), 0L));
  s.SetLabel("n=42 rows");
}
BENCHMARK(BM_lab2)->RangeMultiplier(4)->Range(1<<10, 1<<16);
BENCHMARK_MAIN();
