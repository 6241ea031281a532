// The umbrella: `import BlurKit` brings in every library module.
@_exported import BlurCore
@_exported import BlurIO
@_exported import BlurScene
