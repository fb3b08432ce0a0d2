#include <benchmark/benchmark.h>
#include <vector>
#include <numeric>
static void BM_mt(benchmark::State& s){ std::vector<long> v(s.range(0),1);
  for (auto _: s) benchmark::DoNotOptimize(std::accumulate(v.begin(), v.end(), 0L)); }
BENCHMARK(BM_mt)->RangeMultiplier(4)->Range(1<<10, 1<<16)->MinTime(0.02);
static void BM_rp(benchmark::State& s){ std::vector<long> v(s.range(0),1);
  for (auto _: s) benchmark::DoNotOptimize(std::accumulate(v.begin(), v.end(), 0L)); }
BENCHMARK(BM_rp)->RangeMultiplier(4)->Range(1<<10, 1<<16)->Repetitions(3);
static void BM_pt(benchmark::State& s){ std::vector<long> v(s.range(0),1);
  for (auto _: s) benchmark::DoNotOptimize(std::accumulate(v.begin(), v.end(), 0L)); }
BENCHMARK(BM_pt)->RangeMultiplier(4)->Range(1<<10, 1<<16)->UseRealTime()->Threads(1);
BENCHMARK_MAIN();
