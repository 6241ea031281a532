// A user's code against blurkit.d.ts, checked by `tsc --noEmit --lib es2022` in `make test` (no
// `dom`: a Node project's setting): the options the registry declares type-check, and misspelt or
// mistyped ones do not (each @ts-expect-error must find an error, or tsc fails).
import { load, BlurKit, ProgressiveOptions, MaterialOptions, Image, RGBAImage, Surface } from './blurkit.mjs';

async function main(image: Image): Promise<string[]> {
  const kit: BlurKit = await load();
  const blurred: RGBAImage = kit.blur(image, { sigma: 8, edges: 'transparent' });
  kit.thumbHash(blurred);
  kit.blur(image, { radius: 4, scale: 3 });
  const header: ProgressiveOptions = {
    direction: 'down', maximumBlurRadius: 3.5, dimmingTintColor: '#FFF', dimmingAlpha: 0.25,
    blurMaximumRadiusInset: '25%', dimmingClearExtension: 'none', region: { x: 0, y: 0, width: 390, height: 120 }, scale: 3,
  };
  kit.progressive(image, header);
  const surface: Surface = kit.surface(1170, 450);
  surface.input.data.fill(255);
  const drawn: RGBAImage = surface.progressive(header);
  kit.thumbHash(drawn);
  surface.close();
  const card: MaterialOptions = { style: 'thin', appearance: 'dark', region: '20,20,200,120', cornerRadius: 24 };
  kit.material(image, card);
  const names: string[] = [];
  for (const operation of kit.operations) for (const p of operation.parameters) names.push(`${p.name} ${p.defaultText ?? ''}`);

  // @ts-expect-error: no such option
  kit.progressive(image, { maximumRadius: 3 });
  // @ts-expect-error: a number, not text
  kit.blur(image, { sigma: '8' });
  // @ts-expect-error: a colour is a word or #hex
  kit.progressive(image, { dimmingTintColor: 0xffffff });
  // @ts-expect-error: blur needs its options
  kit.blur(image);
  // @ts-expect-error: a surface's effects draw its own input
  surface.blur(image, { sigma: 8 });
  return names;
}

void main;
