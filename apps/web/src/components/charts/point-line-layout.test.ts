import { describe, expect, it } from 'vitest';
import { POINT_LINE_MARGIN, pointLineLayout } from './point-line-layout.js';

const { top, bottom, left, right } = POINT_LINE_MARGIN;

describe('pointLineLayout', () => {
  const data = [
    { label: '20-22', value: 25 },
    { label: '22-00', value: 50 },
    { label: '00-02', value: 75 },
    { label: '02-04', value: 100 },
  ];
  const width = 400 + left + right;
  const height = 200 + top + bottom;

  it('puts each point in the middle of its band and on the fixed scale', () => {
    const layout = pointLineLayout(data, width, height, [0, 100]);
    expect(layout.plot).toEqual({ left, right: left + 400, top, bottom: top + 200 });
    expect(layout.points.map((point) => point.x)).toEqual([left + 50, left + 150, left + 250, left + 350]);
    expect(layout.points.map((point) => point.y)).toEqual([top + 150, top + 100, top + 50, top]);
    expect(layout.yTicks).toEqual([
      { value: 0, y: top + 200 },
      { value: 25, y: top + 150 },
      { value: 50, y: top + 100 },
      { value: 75, y: top + 50 },
      { value: 100, y: top },
    ]);
    expect(layout.path).toBe(
      `M${left + 50},${top + 150}L${left + 150},${top + 100}L${left + 250},${top + 50}L${left + 350},${top}`,
    );
  });

  it('fits the scale to the values without a fixed range', () => {
    const layout = pointLineLayout(
      [
        { label: 'a', value: 94.3 },
        { label: 'b', value: 104.8 },
      ],
      width,
      height,
    );
    expect(layout.yTicks.map((tick) => tick.value)).toEqual([90, 95, 100, 105]);
    const [low, high] = layout.points;
    expect(low?.y).toBeLessThan(top + 200);
    expect(high?.y).toBeGreaterThan(top);
  });

  it('draws a single point as a path of one move', () => {
    const layout = pointLineLayout([{ label: 'a', value: 120 }], width, height);
    expect(layout.points).toHaveLength(1);
    expect(layout.path).toMatch(/^M[\d.]+,[\d.]+$/);
  });
});
