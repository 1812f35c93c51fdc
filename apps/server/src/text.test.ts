import { describe, expect, it } from 'vitest';
import { foldText, songSearchKey } from './text.js';

describe('foldText', () => {
  it('lower-cases and strips accents', () => {
    expect(foldText('Beyoncé')).toBe('beyonce');
    expect(foldText('BEYONCÉ')).toBe('beyonce');
    expect(foldText('Sigur Rós')).toBe('sigur ros');
    expect(foldText('Motörhead')).toBe('motorhead');
    expect(foldText('Ñandú')).toBe('nandu');
  });

  it('folds precomposed and decomposed forms alike', () => {
    const precomposed = 'caf\u00e9';
    const decomposed = 'cafe\u0301';
    expect(foldText(precomposed)).toBe('cafe');
    expect(foldText(decomposed)).toBe('cafe');
  });

  it('folds letters that NFKD keeps whole', () => {
    expect(foldText('Straße')).toBe('strasse');
    expect(foldText('Mø')).toBe('mo');
    expect(foldText('Łódź')).toBe('lodz');
    expect(foldText('Ærøskøbing')).toBe('aeroskobing');
    expect(foldText('İstanbul')).toBe('istanbul');
  });

  it('folds compatibility characters and collapses white space', () => {
    expect(foldText('ﬁne')).toBe('fine');
    expect(foldText('  Halo \t\n  Live  ')).toBe('halo live');
  });

  it('leaves plain text, digits and punctuation alone', () => {
    expect(foldText("don't stop 2 (remix)")).toBe("don't stop 2 (remix)");
    expect(foldText('')).toBe('');
  });
});

describe('songSearchKey', () => {
  it('is the folded "title artist"', () => {
    expect(songSearchKey('Halo', 'Beyoncé')).toBe('halo beyonce');
    expect(songSearchKey(' Crème Brûlée ', 'Zoë  Kravitz')).toBe('creme brulee zoe kravitz');
  });
});
