// A kernel called before and after fork(), in the parent and in the child,
// with a thread started before the first kernel call and one after, for
// scripts/behaviour.py: an instrumented build must print what the plain
// build prints and end the same way. The child ends with exit(CHILD_STATUS)
// (so its profile is written); the parent checks it with waitpid. Output is
// in a fixed order: the child prints and ends before the parent goes on.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILD_STATUS 7
#define N 4096

__attribute__((noinline)) static double kernel(int n, double *x, double a) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    x[i] = a * x[i] + 1.0;
    s += x[i];
  }
  return s;
}

struct job {
  double x[N];
  double sum;
  double a;
};

static void *worker(void *arg) {
  struct job *j = arg;
  for (int r = 0; r < 3; ++r)
    j->sum += kernel(N, j->x, j->a);
  return NULL;
}

static void start(pthread_t *t, struct job *j, double a) {
  for (int i = 0; i < N; ++i)
    j->x[i] = (double)(i % 17) / 17.0;
  j->sum = 0;
  j->a = a;
  if (pthread_create(t, NULL, worker, j)) {
    fprintf(stderr, "pthread_create failed\n");
    exit(3);
  }
}

static void finish(pthread_t t, const char *who, const struct job *j) {
  pthread_join(t, NULL);
  printf("%s: thread sum %.10e\n", who, j->sum);
}

static struct job early, late, child_job;
static double x[N];

int main(void) {
  pthread_t t_early, t_late;
  start(&t_early, &early, 0.5); // before the first kernel call
  for (int i = 0; i < N; ++i)
    x[i] = (double)(i % 13) / 13.0;
  printf("parent before fork: %.10e\n", kernel(N, x, 0.75));
  start(&t_late, &late, 0.25); // after it
  finish(t_early, "parent early", &early);
  fflush(stdout); // nothing buffered is copied into the child

  pid_t pid = fork();
  if (pid < 0) {
    perror("fork");
    return 4;
  }
  if (pid == 0) {
    // The child: the kernel on its copy of x, and a thread of its own.
    pthread_t t_child;
    start(&t_child, &child_job, 0.125);
    printf("child: %.10e\n", kernel(N, x, 1.25));
    finish(t_child, "child", &child_job);
    fflush(stdout);
    exit(CHILD_STATUS);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) {
    perror("waitpid");
    return 5;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != CHILD_STATUS) {
    printf("child ended badly: status 0x%x\n", status);
    return 6;
  }
  printf("child exited with %d\n", WEXITSTATUS(status));
  printf("parent after fork: %.10e\n", kernel(N, x, 0.75));
  finish(t_late, "parent late", &late);
  return 0;
}
