var a = 1;
var s = "café";
// comment ÿ
function f(x) {
  return x + 1;
}
throw new Error("boom " + f(a));
