// The registry's description in blurkit.wasm, as data: the JSON `bk_registry` (Web/Exports.swift,
// `Describe`) wrote when Scripts/wasm.sh linked the module once to ask it, gzipped and embedded
// here, so the code that writes it stays out of the module. blurkit.mjs unzips it when it loads.
static const unsigned char description[] = {
#embed "description.json.gz"
};

/// Where the gzipped JSON starts in the module's memory.
const unsigned char *bk_describe(void) { return description; }

/// Its length in bytes.
unsigned long bk_describe_length(void) { return sizeof description; }
