import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeAtomic, writeInPlace, type FifoWait, type OutputTarget, type ResultWriter } from "./files.js";

/** Where the final result ended up. */
export type Delivery =
  | { readonly kind: "written" }
  /** The target could not take it; it was saved at `path` instead. */
  | { readonly kind: "fallback"; readonly path: string; readonly error: unknown }
  /** Nowhere could take it; `onDisk` is the size of the older result the target still holds. */
  | { readonly kind: "lost"; readonly error: unknown; readonly onDisk: number | undefined };

/**
 * Puts the final result where the user asked: a regular file (already written after each
 * improvement; retried once if the newest write failed), a device or FIFO (written once, in place),
 * or stdout. When that fails, the result is saved in the temporary directory or the current
 * directory instead, so it is never lost while some disk can take it. A FIFO waits for its reader as
 * `fifo` says; a signal that ends the wait saves the result elsewhere too.
 */
export async function deliverResult(
  target: OutputTarget,
  content: Uint8Array,
  writer: ResultWriter | undefined,
  stdout: NodeJS.WritableStream,
  fallbackName: string,
  fifo?: FifoWait,
): Promise<Delivery> {
  let error: unknown;
  try {
    if (target.kind === "file") {
      let failure = await writer?.settle();
      if (failure !== undefined) {
        writer!.write(content);
        failure = await writer!.settle();
      }
      if (failure === undefined) return { kind: "written" };
      error = failure.error;
    } else if (target.kind === "special") {
      await writeInPlace(target.path, content, fifo);
      return { kind: "written" };
    } else {
      await writeToStream(stdout, content);
      return { kind: "written" };
    }
  } catch (caught) {
    error = caught;
  }
  const places = [tmpdir()];
  try {
    places.push(process.cwd());
  } catch {
    // the current directory was deleted meanwhile
  }
  for (const dir of places) {
    const path = join(dir, `whittle-${process.pid}-${fallbackName}`);
    try {
      await writeAtomic(path, content);
      return { kind: "fallback", path, error };
    } catch {
      // try the next place
    }
  }
  return { kind: "lost", error, onDisk: writer?.writtenSize };
}

/** Writes to a stream and waits until it took the bytes; a closed pipe (EPIPE) rejects, never throws. */
export function writeToStream(stream: NodeJS.WritableStream, content: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    stream.once("error", onError);
    stream.write(content, (error) => {
      stream.off("error", onError);
      if (error) reject(error);
      else resolve();
    });
  });
}
