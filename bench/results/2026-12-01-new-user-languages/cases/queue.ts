interface Task {
  id: number;
  title: string;
  done: boolean;
  tags?: string[];
}

type Filter = (t: Task) => boolean;

export class Queue<T extends Task> {
  private items: T[] = [];
  private listeners: Array<(t: T) => void> = [];

  add(item: T): void {
    this.items.push(item);
    for (const l of this.listeners) l(item);
  }

  on(listener: (t: T) => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  filter(f: Filter): T[] {
    return this.items.filter(f);
  }

  byTag(): Map<string, T[]> {
    const out = new Map<string, T[]>();
    for (const item of this.items) {
      for (const tag of item.tags ?? []) {
        const list = out.get(tag) ?? [];
        list.push(item);
        out.set(tag, list);
      }
    }
    return out;
  }

  summary(): string {
    const open = this.filter((t) => !t.done).length;
    const count: string = this.items.length;
    return `${open} of ${count} open`;
  }
}

const q = new Queue<Task>();
q.add({ id: 1, title: "write", done: false, tags: ["doc"] });
q.add({ id: 2, title: "test", done: true });
console.log(q.summary());
