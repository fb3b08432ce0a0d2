/* Tiny command-line kernels for patternalg's hyperfine reader tests (see README.md beside this file). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc != 3) { fprintf(stderr, "usage: kernels sort|pass N\n"); return 2; }
  long n = atol(argv[2]);
  int *v = malloc(sizeof(int) * (size_t)n);
  unsigned s = 42;
  for (long i = 0; i < n; i++) { s = s * 1103515245u + 12345u; v[i] = (int)(s >> 1); }
  long sum = 0;
  if (strcmp(argv[1], "sort") == 0) qsort(v, (size_t)n, sizeof(int), compare);
  else for (long r = 0; r < 20; r++) for (long i = 0; i < n; i++) sum += v[i] ^ r;
  printf("%d %ld\n", v[n / 2], sum);
  free(v);
  return 0;
}
