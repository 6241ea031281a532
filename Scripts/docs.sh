#!/usr/bin/env bash
# make docs: the DocC site, offline, into docs-site/.
#   1. symbol graphs of the public API (swift package dump-symbol-graph);
#   2. the check that every public symbol has a doc comment (Scripts/undocumented.py);
#   3. docc convert of each module's catalog with its symbol graphs, warnings as errors;
#   4. the archives merged into one and transformed for static hosting.
set -euo pipefail
cd "$(dirname "$0")/.."
MODULES="BlurKit BlurCore BlurIO BlurScene"
CHECKED="$MODULES BlurCommandLine BlurServe"
WORK=.build/docs
rm -rf "$WORK" docs-site
mkdir -p "$WORK"

# The test bundles' graphs fail to emit (they are not modules a client imports) and make the command
# exit non-zero; the library modules' graphs must all be there, written afresh.
rm -rf .build/*/symbolgraph
swift package dump-symbol-graph --skip-synthesized-members > "$WORK/symbol-graph.log" 2>&1 || true
GRAPHS=$(ls -d .build/*/symbolgraph 2>/dev/null | head -1)
for module in $CHECKED; do
    [ -n "$GRAPHS" ] && [ -f "$GRAPHS/$module.symbols.json" ] || { cat "$WORK/symbol-graph.log"; echo "no symbol graph for $module"; exit 1; }
done
python3 Scripts/undocumented.py "$GRAPHS" $CHECKED

archives=()
for module in $MODULES; do
    mkdir -p "$WORK/graphs/$module"
    cp "$GRAPHS/$module.symbols.json" "$WORK/graphs/$module/"
    cp "$GRAPHS/$module"@*.symbols.json "$WORK/graphs/$module/" 2>/dev/null || true
    docc convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$WORK/graphs/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.blurkit.$module" \
        --warnings-as-errors --output-path "$WORK/$module.doccarchive"
    archives+=("$WORK/$module.doccarchive")
done
docc merge "${archives[@]}" --synthesized-landing-page-name BlurKit --output-path "$WORK/BlurKit-all.doccarchive"
docc process-archive transform-for-static-hosting "$WORK/BlurKit-all.doccarchive" --output-path docs-site
# The renderer asks for a theme; the default one, said explicitly, so that it finds a file.
echo '{"theme": {}}' > docs-site/theme-settings.json
echo "docs-site/ is built: serve it with any static file server, e.g. python3 -m http.server -d docs-site, and open /documentation/blurkit"
