var v0 = 6.5;
var v1 = null;
var v2 = 6.5;
var v3 = null;
var v4 = 96;
var v5 = true;
var v6 = 96;
var v7 = {};
var v8 = 36;
var v9 = null;
var v10 = 28;
var v11 = "s16";
function f24(a, b) { var v0 = "s2"; return a; }
function f10(a, b) { v4 = [{}, 1.5].map(function (x) { return x; }); return a; }
v8 = [null, "s38"].map(function (x) { return x; });
for (let i7 = 0; i7 < 2; i7++) { var v4 = 56; }
if (v8 == 16) { var v0 = {}; }
var o8 = { a: "s6", b: function () { return true; } };
function f20(a, b) { if (v4 == 7.5) { var v8 = true; } return a; }
for (let i4 = 0; i4 < 6; i4++) { for (let i3 = 0; i3 < 10; i3++) { var v0 = 3.5; } }
v8 = [null, null].map(function (x) { return x; });
if (v8 == null) { v8 = v8 + []; }
function f0(a, b) { v0 = v0 + 88; return a; }
for (let i1 = 0; i1 < 6; i1++) { function f6(a, b) { if (v8 == {}) { if (v4 == true) { var v4 = "s8"; } } return a; } }
v8 = [{}, 4].map(function (x) { return x; });
var k7 = 0; while (k7 < 23) { k7 += 3; var k5 = 0; while (k5 < 41) { k5 += 3; try { v4.p0 = {}; } catch (e) { v4 = e; } } }
v8 = v8 + null;
function f14(a, b) { if (v0 == true) { try { v4.p2 = {}; } catch (e) { v4 = e; } } return a; }
v8 = [{}, true].map(function (x) { return x; });
var v8 = 56;
v0 = [{}, []].map(function (x) { return x; });
var o4 = { a: true, b: function () { return []; } };
try { v4.p0 = true; } catch (e) { v0 = e; }
for (let i3 = 0; i3 < 10; i3++) { v0 = v8 + true; }
var k4 = 0; while (k4 < 25) { k4 += 1; var k3 = 0; while (k3 < 7) { k3 += 2; var v8 = {}; } }
function f24(a, b) { for (let i7 = 0; i7 < 18; i7++) { try { v8.p0 = null; } catch (e) { v8 = e; } } return a; }
v0 = v4 + true;
var k5 = 0; while (k5 < 41) { k5 += 3; try { v0.p2 = 92; } catch (e) { v0 = e; } }
v8 = [[], true].map(function (x) { return x; });
for (let i7 = 0; i7 < 14; i7++) { var v4 = null; }
function f14(a, b) { function f8(a, b) { var v8 = 84; return a; } return a; }
try { v0.p0 = []; } catch (e) { v0 = e; }
try { v8.p4 = true; } catch (e) { v0 = e; }
if (v4 == 92) { for (let i4 = 0; i4 < 18; i4++) { var v4 = 92; } }
v8 = [{}, 56].map(function (x) { return x; });
if (v4 == []) { for (let i0 = 0; i0 < 2; i0++) { if (v4 == []) { if (v4 == 2.5) { try { v5.p1 = {}; } catch (e) { v0 = e; } } } } }
function f4(a, b) { for (let i4 = 0; i4 < 6; i4++) { try { v8.p4 = 0.5; } catch (e) { v5 = e; } } return a; }
function f4(a, b) { function f10(a, b) { if (v0 == "s34") { if (v8 == {}) { var v8 = 8.5; } } return a; } return a; }
for (let i6 = 0; i6 < 14; i6++) { function f10(a, b) { try { v4.p2 = []; } catch (e) { v4 = e; } return a; } }
var k4 = 0; while (k4 < 47) { k4 += 2; if (v4 == {}) { if (v4 == {}) { try { v4.p4 = []; } catch (e) { v4 = e; } } } }
var v8 = [];
v8 = v4 + [];
function f24(a, b) { for (let i5 = 0; i5 < 6; i5++) { var v0 = null; } return a; }
v8 = [2.5, []].map(function (x) { return x; });
var len = 7; for (let j = 0; j < 4; j++) { len -= 3; }
var arr = new Array(len < 0 ? len : 1);
var o16 = { a: null, b: function () { return null; } };
if (v8 == []) { if (v8 == null) { if (v4 == []) { var v8 = "s8"; } } }
var v0 = 5.5;
var v0 = true;
function f2(a, b) { function f0(a, b) { var v8 = "s6"; return a; } return a; }
for (let i3 = 0; i3 < 6; i3++) { var o8 = { a: true, b: function () { return null; } }; }
var v4 = {};
for (let i7 = 0; i7 < 18; i7++) { v4 = v0 + 12; }
v4 = [true, 0].map(function (x) { return x; });
if (v8 == {}) { var k6 = 0; while (k6 < 53) { k6 += 2; var v0 = []; } }
var k7 = 0; while (k7 < 11) { k7 += 3; var v8 = "s44"; }
var k3 = 0; while (k3 < 43) { k3 += 1; v4 = v4 + []; }
var k0 = 0; while (k0 < 19) { k0 += 1; var o12 = { a: null, b: function () { return null; } }; }
function f8(a, b) { function f28(a, b) { var v8 = 3.5; return a; } return a; }
for (let i1 = 0; i1 < 2; i1++) { var v8 = true; }
var k4 = 0; while (k4 < 21) { k4 += 1; v8 = v8 + null; }
var o8 = { a: {}, b: function () { return 7.5; } };
var o12 = { a: "s8", b: function () { return 2.5; } };
if (v4 == {}) { try { v8.p3 = true; } catch (e) { v4 = e; } }
function f8(a, b) { var v0 = true; return a; }
for (let i0 = 0; i0 < 10; i0++) { var k4 = 0; while (k4 < 37) { k4 += 2; var v0 = "s2"; } }
v8 = [2.5, 6.5].map(function (x) { return x; });
try { v4.p1 = true; } catch (e) { v0 = e; }
