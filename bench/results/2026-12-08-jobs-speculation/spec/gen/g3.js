var v0 = 0.5;
var v1 = "s16";
var v2 = {};
var v3 = 48;
var v4 = null;
var v5 = true;
var v6 = {};
var v7 = [];
var v8 = 84;
var v9 = "s18";
var v10 = {};
var v11 = [];
try { v4.p0 = "s6"; } catch (e) { v4 = e; }
var v4 = 0.5;
var o4 = { a: "s22", b: function () { return 12; } };
v0 = [null, true].map(function (x) { return x; });
for (let i1 = 0; i1 < 6; i1++) { function f28(a, b) { var v4 = null; return a; } }
v0 = [true, 52].map(function (x) { return x; });
for (let i8 = 0; i8 < 2; i8++) { if (v8 == {}) { if (v8 == 2.5) { var v0 = 40; } } }
var k0 = 0; while (k0 < 33) { k0 += 3; for (let i6 = 0; i6 < 10; i6++) { try { v4.p3 = "s26"; } catch (e) { v8 = e; } } }
v0 = [[], {}].map(function (x) { return x; });
try { v8.p0 = null; } catch (e) { v4 = e; }
if (v8 == "s38") { var v4 = true; }
function f8(a, b) { for (let i4 = 0; i4 < 10; i4++) { if (v0 == {}) { try { v8.p2 = 3.5; } catch (e) { v4 = e; } } } return a; }
try { v8.p4 = true; } catch (e) { v0 = e; }
for (let i0 = 0; i0 < 6; i0++) { var k8 = 0; while (k8 < 7) { k8 += 2; try { v8.p2 = true; } catch (e) { v4 = e; } } }
var k7 = 0; while (k7 < 35) { k7 += 1; function f14(a, b) { var v8 = []; return a; } }
for (let i1 = 0; i1 < 14; i1++) { var o16 = { a: [], b: function () { return {}; } }; }
v4 = v4 + 6.5;
function f14(a, b) { var k6 = 0; while (k6 < 35) { k6 += 1; if (v0 == {}) { if (v1 == "s4") { if (v8 == true) { var v4 = 20; } } } } return a; }
v4 = v0 + true;
var v8 = true;
var k2 = 0; while (k2 < 7) { k2 += 1; v0 = v4 + true; }
var k6 = 0; while (k6 < 19) { k6 += 2; for (let i1 = 0; i1 < 10; i1++) { var v8 = true; } }
var o16 = { a: [], b: function () { return true; } };
function f18(a, b) { var v4 = {}; return a; }
var v0 = null;
try { v8.p3 = 72; } catch (e) { v8 = e; }
try { v8.p4 = true; } catch (e) { v8 = e; }
try { v8.p4 = true; } catch (e) { v8 = e; }
try { v0.p1 = "s46"; } catch (e) { v8 = e; }
v4 = v4 + null;
var v8 = "s14";
var o8 = { a: {}, b: function () { return true; } };
for (let i2 = 0; i2 < 14; i2++) { v0 = ["s48", []].map(function (x) { return x; }); }
if (v4 == {}) { v4 = v4 + 4.5; }
try { v8.p1 = true; } catch (e) { v4 = e; }
v8 = v8 + 76;
for (let i2 = 0; i2 < 14; i2++) { v0 = v0 + 40; }
var o4 = { a: null, b: function () { return true; } };
function f26(a, b) { var k5 = 0; while (k5 < 17) { k5 += 3; var v4 = 4.5; } return a; }
for (let i2 = 0; i2 < 10; i2++) { v4 = [null, []].map(function (x) { return x; }); }
v8 = v8 + [];
var v4 = [];
var o8 = { a: [], b: function () { return 88; } };
try { v4.p1 = {}; } catch (e) { v4 = e; }
v4 = v4 + true;
var v0 = {};
var len = 7; for (let j = 0; j < 4; j++) { len -= 3; }
var arr = new Array(len < 0 ? len : 1);
v8 = v8 + true;
function f12(a, b) { function f10(a, b) { if (v8 == 0) { try { v8.p4 = 8.5; } catch (e) { v4 = e; } } return a; } return a; }
try { v0.p3 = 1.5; } catch (e) { v8 = e; }
try { v4.p0 = 4.5; } catch (e) { v8 = e; }
v4 = v8 + {};
var k3 = 0; while (k3 < 5) { k3 += 1; function f14(a, b) { if (v4 == []) { try { v0.p0 = true; } catch (e) { v8 = e; } } return a; } }
try { v8.p0 = 3.5; } catch (e) { v4 = e; }
try { v8.p0 = true; } catch (e) { v0 = e; }
v0 = v0 + 1.5;
