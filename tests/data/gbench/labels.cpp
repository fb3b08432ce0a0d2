#include <benchmark/benchmark.h>
#include <vector>
#include <numeric>
#include <string>
static void BM_lab(benchmark::State& s){ std::vector<long> v(s.range(0),1);
  for (auto _: s) benchmark::DoNotOptimize(std::accumulate(v.begin(), v.end(), 0L));
  s.SetBytesProcessed(s.iterations()*s.range(0)*8);
  s.SetLabel("size " + std::to_string(s.range(0)) + ", \"dense\"");
  s.counters["elems"] = s.range(0);
}
BENCHMARK(BM_lab)->RangeMultiplier(4)->Range(1<<10, 1<<16);
BENCHMARK_MAIN();
