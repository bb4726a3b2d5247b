import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { BrokerUrlError, maskInText, parseBrokerUrl } from "../../src/queue/address.js";

describe("broker URLs", () => {
  test("host, port and database; the defaults", () => {
    const a = parseBrokerUrl("redis://build1:6380/3", {});
    assert.deepEqual(a.options, { host: "build1", port: 6380, db: 3 });
    assert.equal(a.shown, "redis://build1:6380/3");
    assert.deepEqual(parseBrokerUrl("redis://h", {}).options, { host: "h", port: 6379, db: 0 });
  });

  test("user and password from the URL are used and masked", () => {
    const a = parseBrokerUrl("redis://alice:p%40ss@h:1/0", {});
    assert.equal(a.options.username, "alice");
    assert.equal(a.options.password, "p@ss");
    assert.equal(a.shown, "redis://alice:***@h:1/0");
    assert.ok(!a.shown.includes("p@ss") && !a.shown.includes("p%40ss"));
  });

  test("the password from $WHITTLE_REDIS_PASSWORD when the URL has none", () => {
    const a = parseBrokerUrl("redis://h:1/0", { WHITTLE_REDIS_PASSWORD: "envpw" });
    assert.equal(a.options.password, "envpw");
    assert.equal(a.shown, "redis://:***@h:1/0");
  });

  test("rediss:// is TLS", () => {
    const a = parseBrokerUrl("rediss://h:1/0", {});
    assert.deepEqual(a.options.tls, { servername: "h" });
  });

  test("bad URLs: a message that names the problem and never the password", () => {
    assert.throws(() => parseBrokerUrl("http://u:pw@h/0", {}), BrokerUrlError);
    assert.throws(() => parseBrokerUrl("redis://h/abc", {}), /database number/);
    assert.throws(() => parseBrokerUrl("redis://h/0?x=1", {}), /no query/);
    assert.throws(
      () => parseBrokerUrl("not a url u:pw@", {}),
      (error: Error) => !error.message.includes(":pw@"),
    );
    assert.equal(maskInText("redis://u:pw@h"), "redis://u:***@h");
  });
});
