p='src/hdd/hang-memory.ts'
s=open(p).read()
old='''      if (predicted(key) && evaluator.takeForTimeout(label)) return "timeout";
      const outcome = await evaluator.ask(key, signal, label);'''
new='''      const shadow = predicted(key);
      const outcome = await evaluator.ask(key, signal, label);
      if (shadow) process.stderr.write(`SHADOW-TREE ${outcome} ${label.kind}\\n`);'''
assert old in s
s=s.replace(old,new)
open(p,'w').write(s)
