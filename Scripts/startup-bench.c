// Start-up of calc against bc (Documentation/Performance.md; SPEC §7): spawns `CALC -k 12+3=` and
// `bc -q BCFILE` alternately N times each, stdin and stdout /dev/null, and prints the median
// wall time of each and their ratio. SPEC v4's BCFILE holds `12+3`; without it, /dev/null.
// More CALCs after BCFILE take their turns in the same rounds (two builds side by side), each
// with its own median and ratio to bc's.
//
//   printf '12+3\n' > /tmp/startup.bc
//   cc -O2 -o /tmp/startup-bench Scripts/startup-bench.c
//   /tmp/startup-bench 101 path/to/calc /tmp/startup.bc [path/to/other-calc ...]
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/// One run of argv, in milliseconds.
static double run(char **argv) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  struct timespec start, end;
  pid_t pid;
  int status;
  clock_gettime(CLOCK_MONOTONIC, &start);
  if (posix_spawn(&pid, argv[0], &actions, 0, argv, environ) != 0) {
    perror(argv[0]);
    exit(1);
  }
  waitpid(pid, &status, 0);
  clock_gettime(CLOCK_MONOTONIC, &end);
  posix_spawn_file_actions_destroy(&actions);
  return (end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s RUNS CALC [BCFILE [CALC...]]\n", argv[0]);
    return 64;
  }
  int runs = atoi(argv[1]);
  // The calcs: argv[2], then argv[4...].
  int count = argc > 4 ? argc - 3 : 1;
  char **names = malloc(count * sizeof(char *));
  names[0] = argv[2];
  for (int j = 1; j < count; j++) names[j] = argv[3 + j];
  char *bc[] = {"/usr/bin/bc", "-q", argc > 3 ? argv[3] : "/dev/null", 0};
  double *calcTimes = malloc(count * runs * sizeof(double));
  double *bcTimes = malloc(runs * sizeof(double));
  for (int i = 0; i < runs; i++) {
    for (int j = 0; j < count; j++) {
      char *calc[] = {names[j], "-k", "12+3=", 0};
      calcTimes[j * runs + i] = run(calc);
    }
    bcTimes[i] = run(bc);
  }
  qsort(bcTimes, runs, sizeof(double), compare);
  double b = bcTimes[runs / 2];
  for (int j = 0; j < count; j++) {
    qsort(calcTimes + j * runs, runs, sizeof(double), compare);
    double c = calcTimes[j * runs + runs / 2];
    if (count == 1) {
      printf("calc %.3f ms  bc %.3f ms  ratio %.2f\n", c, b, c / b);
    } else {
      printf("%s %.3f ms  ratio %.3f\n", names[j], c, c / b);
    }
  }
  if (count > 1) printf("bc %.3f ms\n", b);
  return 0;
}
