// The registry's description in blurkit.wasm, as data: the JSON `bk_registry` (Web/Exports.swift,
// `Describe`) wrote when Scripts/wasm.sh linked the module once to ask it, embedded here, so the
// code that writes it stays out of the module. NUL-terminated, for blurkit.mjs.
static const char description[] = {
#embed "description.json"
    , 0};

const char *bk_describe(void) { return description; }
