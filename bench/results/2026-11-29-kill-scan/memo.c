/* jobs-bench test: sleep, then answer from a memo of the oracle's answers keyed by content. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv) {
  if (argc != 5) return 125;
  const char *memo = argv[1], *oracle = argv[3], *file = argv[4];
  long sleepMs = atol(argv[2]);
  if (sleepMs > 0) { struct timespec t = {sleepMs / 1000, (sleepMs % 1000) * 1000000L}; nanosleep(&t, 0); }
  int fd = open(file, O_RDONLY);
  if (fd < 0) return 125;
  uint64_t a = 1469598103934665603ULL, b = 0; char buf[65536]; ssize_t n; uint64_t len = 0;
  while ((n = read(fd, buf, sizeof buf)) > 0) for (ssize_t i = 0; i < n; i++) { a = (a ^ (unsigned char)buf[i]) * 1099511628211ULL; b = b * 31 + (unsigned char)buf[i]; len++; }
  close(fd);
  char path[4096]; snprintf(path, sizeof path, "%s/%016llx%016llx%llx", memo, (unsigned long long)a, (unsigned long long)b, (unsigned long long)len);
  FILE *m = fopen(path, "r");
  if (m) { int rc = 125; if (fscanf(m, "%d", &rc) != 1) rc = 125; fclose(m); return rc; }
  pid_t pid = fork();
  if (pid == 0) { execl(oracle, oracle, file, (char *)0); _exit(127); }
  int st; if (waitpid(pid, &st, 0) < 0) return 125;
  int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  char tmp[4200]; snprintf(tmp, sizeof tmp, "%s.%d", path, (int)getpid());
  FILE *w = fopen(tmp, "w"); if (w) { fprintf(w, "%d\n", rc); fclose(w); rename(tmp, path); }
  return rc;
}
