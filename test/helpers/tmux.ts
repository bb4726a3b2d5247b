import { execFileSync } from "node:child_process";

/** Whether tmux is installed: the tests that need a real terminal skip without it. */
export function hasTmux(): boolean {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * A private tmux server (its own socket, no configuration) with one session running an interactive
 * bash in a real terminal. `keys` types into it; `close` kills the server, which hangs up the terminal.
 */
export function tmuxSession(): { keys(...keys: string[]): void; screen(): string; close(): void } {
  const socket = `whittle-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const tmux = (...args: string[]): string =>
    execFileSync("tmux", ["-L", socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
  tmux("new-session", "-d", "-s", "t", "-x", "160", "-y", "40", "bash --norc --noprofile -i");
  let open = true;
  return {
    keys: (...keys) => void tmux("send-keys", "-t", "t", ...keys),
    screen: () => (open ? tmux("capture-pane", "-p", "-t", "t") : ""),
    close() {
      if (!open) return;
      open = false;
      try {
        tmux("kill-server");
      } catch {
        // already gone
      }
    },
  };
}
