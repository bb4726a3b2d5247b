/**
 * A slow test for the `jobs` section: it sleeps, then answers from a memo of the real oracle's
 * answers by content (running the oracle and recording its answer on a miss). Compiled from C when
 * the machine has a C compiler, so that one test costs one exec and a sleep: a bash wrapper with
 * `sleep`, `sha256sum`, `cut` and `cat` took about 36 ms of CPU a test here (measured with 200 runs
 * in a loop), and at `-j 8` on 2 cores those processes, not the algorithms, set the pace.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, writeFileSync } from "node:fs";

/** How the memo test is built: "c" (one compiled program) or "bash" (no C compiler found). */
export type MemoTestKind = "c" | "bash";

// The memo key is the content's FNV-1a 64-bit hash, a polynomial hash and the length; a collision
// would need all three to agree.
const SOURCE = String.raw`
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv) {
  if (argc != 2) return 125;
  if (SLEEP_MS > 0) {
    struct timespec t = {SLEEP_MS / 1000, (SLEEP_MS % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0) {}
  }
  int fd = open(argv[1], O_RDONLY);
  if (fd < 0) return 125;
  uint64_t a = 1469598103934665603ULL, b = 0, len = 0;
  unsigned char buf[65536];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0)
    for (ssize_t i = 0; i < n; i++) {
      a = (a ^ buf[i]) * 1099511628211ULL;
      b = b * 31 + buf[i];
      len++;
    }
  close(fd);
  char path[4096];
  snprintf(path, sizeof path, "%s/%016llx%016llx%llx", MEMO, (unsigned long long)a,
           (unsigned long long)b, (unsigned long long)len);
  FILE *m = fopen(path, "r");
  if (m) {
    int rc = 125;
    if (fscanf(m, "%d", &rc) != 1) rc = 125;
    fclose(m);
    return rc;
  }
  pid_t pid = fork();
  if (pid < 0) return 125;
  if (pid == 0) {
    execl(ORACLE, ORACLE, argv[1], (char *)0);
    _exit(127);
  }
  int st;
  if (waitpid(pid, &st, 0) < 0) return 125;
  int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.%d", path, (int)getpid());
  FILE *w = fopen(tmp, "w");
  if (w) {
    fprintf(w, "%d\n", rc);
    fclose(w);
    rename(tmp, path);
  }
  return rc;
}
`;

function bashWrapper(path: string, oracle: string, memo: string, sleepS: number): void {
  writeFileSync(
    path,
    `#!/usr/bin/env bash
${sleepS > 0 ? `sleep ${sleepS}\n` : ""}h=$(sha256sum "$1" | cut -c1-64)
m='${memo}'/"$h"
if [ -f "$m" ]; then exit "$(cat "$m")"; fi
'${oracle}' "$1"; rc=$?
echo "$rc" > "$m.$$" && mv "$m.$$" "$m"
exit "$rc"
`,
  );
  chmodSync(path, 0o755);
}

/**
 * Writes the test program to `path`: compiled with `cc` when it builds, else a bash script. Every
 * program written with the same `memo` and `kind` shares its answers. Returns what was built.
 */
export function memoTest(
  path: string,
  oracle: string,
  memo: string,
  sleepS: number,
  kind: MemoTestKind | undefined,
): MemoTestKind {
  if (kind !== "bash") {
    const source = `${path}.c`;
    writeFileSync(source, SOURCE);
    const cc = spawnSync(
      "cc",
      [
        "-O2",
        `-DSLEEP_MS=${Math.round(sleepS * 1000)}L`,
        `-DMEMO=${JSON.stringify(memo)}`,
        `-DORACLE=${JSON.stringify(oracle)}`,
        "-o",
        path,
        source,
      ],
      { encoding: "utf8" },
    );
    if (cc.status === 0) return "c";
    if (kind === "c") throw new Error(`cc failed on ${source}: ${cc.stderr || cc.error?.message}`);
  }
  bashWrapper(path, oracle, memo, sleepS);
  return "bash";
}
