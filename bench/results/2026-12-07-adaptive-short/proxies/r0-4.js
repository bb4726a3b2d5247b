a+=0
var a=Array(a)
