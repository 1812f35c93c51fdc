import { api } from '@wcs/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiCall, buildUrl, errorFromResponse, listItems, onUnauthorized } from './api.js';
import { API_ROUTES } from './api-routes.js';

afterEach(() => vi.unstubAllGlobals());

describe('buildUrl', () => {
  it('fills path parameters and repeats array query values', () => {
    expect(buildUrl('/events/:id/socials', { id: 7 })).toBe('/api/events/7/socials');
    expect(
      buildUrl('/analytics/compare', undefined, { ids: [1, 2], comparison_type: 'event', skip: undefined }),
    ).toBe('/api/analytics/compare?ids=1&ids=2&comparison_type=event');
  });
  it('refuses a missing path parameter', () => {
    expect(() => buildUrl('/songs/:id', {})).toThrow('Missing path parameter id');
  });
});

describe('errorFromResponse', () => {
  it("uses the server's message", async () => {
    const error = await errorFromResponse(
      new Response(JSON.stringify({ message: 'Event 9 was not found' }), { status: 404 }),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('Event 9 was not found');
    expect(error.status).toBe(404);
  });
  it('falls back to the first 200 characters of the body', async () => {
    const body = 'x'.repeat(300);
    const error = await errorFromResponse(new Response(body, { status: 502 }));
    expect(error.message).toBe(`API Error 502: ${'x'.repeat(200)}`);
  });
});

describe('apiCall', () => {
  it('sends the method, path, query and JSON body, and returns the parsed body', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ event_id: 3 }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const result = await apiCall('updateEvent', { params: { id: 3 }, body: { event_name: 'X' } });
    expect(result).toEqual({ event_id: 3 });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/events/3');
    expect(init.method).toBe('PUT');
    expect(init.body).toBe('{"event_name":"X"}');
  });
  it('throws the server message on an error status', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ message: 'Nope' }), { status: 400 }));
    await expect(apiCall('getSettings')).rejects.toThrow('Nope');
  });
});

describe('listItems', () => {
  it('reads data or items', () => {
    expect(listItems({ data: [1] })).toEqual([1]);
    expect(listItems({ items: [2] })).toEqual([2]);
    expect(listItems(undefined)).toEqual([]);
  });
});

describe('API_ROUTES', () => {
  it("holds every call of the contract with the contract's method, path and access", () => {
    expect(Object.keys(API_ROUTES).sort()).toEqual(Object.keys(api).sort());
    for (const [name, endpoint] of Object.entries(api)) {
      expect(API_ROUTES[name as keyof typeof api], name).toEqual([
        endpoint.method,
        endpoint.path,
        endpoint.access,
      ]);
    }
  });
});

describe('a 401', () => {
  afterEach(() => onUnauthorized(undefined));

  it('of a guarded call tells the app that the session ended', async () => {
    const handler = vi.fn();
    onUnauthorized(handler);
    vi.stubGlobal(
      'fetch',
      async () => new Response(JSON.stringify({ message: 'Sign in first' }), { status: 401 }),
    );
    await expect(apiCall('getSettings')).rejects.toThrow('Sign in first');
    expect(handler).toHaveBeenCalledTimes(1);
  });
  it('of an anonymous call (a wrong password) is only that call’s answer', async () => {
    const handler = vi.fn();
    onUnauthorized(handler);
    vi.stubGlobal(
      'fetch',
      async () =>
        new Response(JSON.stringify({ message: 'The name or the password is wrong' }), { status: 401 }),
    );
    await expect(apiCall('login', { body: { name: 'ada', password: 'nope' } })).rejects.toThrow(
      'The name or the password is wrong',
    );
    expect(handler).not.toHaveBeenCalled();
  });
  it('is not a 403: a role too low for a call keeps its session', async () => {
    const handler = vi.fn();
    onUnauthorized(handler);
    vi.stubGlobal(
      'fetch',
      async () => new Response(JSON.stringify({ message: 'needs admin' }), { status: 403 }),
    );
    await expect(apiCall('updateSettings', { body: {} })).rejects.toThrow('needs admin');
    expect(handler).not.toHaveBeenCalled();
  });
});
