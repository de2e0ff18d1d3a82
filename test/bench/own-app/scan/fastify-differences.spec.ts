import { createRequire } from 'node:module';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { APP_METHODS } from '../../../../bench/own-app/scan/app-differences.js';
import {
  EXPRESS_RESPONSE_ONLY,
  REQUEST_MEMBERS,
  RESPONSE_MEMBERS,
} from '../../../../bench/own-app/scan/fastify-differences.js';

const require = createRequire(import.meta.url);
const express = require('express');
const Reply = require('fastify/lib/reply');
const Request = require('fastify/lib/request');
const { NestApplication } = require('@nestjs/core/nest-application');
const { FastifyAdapter } = require('@nestjs/platform-fastify');

/** Every name an object answers to, up its prototype chain. */
function members(object: object) {
  const names = new Set<string>();
  for (let at = object; at && at !== Object.prototype; at = Object.getPrototypeOf(at))
    for (const name of Object.getOwnPropertyNames(at)) names.add(name);
  return names;
}

describe('the knowledge base, against the installed Express, Fastify and Node', () => {
  const rawResponse = members(new ServerResponse(new IncomingMessage(new Socket())));

  it('lists every method of Express’s response as Express’s own', () => {
    for (const name of Object.keys(express.response)) expect(EXPRESS_RESPONSE_ONLY, name).toContain(name);
  });

  it('lists nothing Node’s ServerResponse has, which middleware gets on Fastify, and Node has the methods it uses', () => {
    for (const name of EXPRESS_RESPONSE_ONLY) expect(rawResponse.has(name), name).toBe(false);
    for (const name of ['setHeader', 'getHeader', 'writeHead', 'end', 'statusCode', 'req'])
      expect(rawResponse.has(name), name).toBe(true);
  });

  it('says “the reply has no X” only of members Fastify’s reply lacks', () => {
    const reply = members(Reply.prototype);
    const claimed = Object.entries(RESPONSE_MEMBERS).filter(([, d]) => /the reply has no /.test(d.onFastify));
    expect(claimed.length).toBeGreaterThan(10);
    for (const [name] of claimed) expect(reply.has(name), name).toBe(false);
  });

  it('says the request lacks X only of members Fastify’s request (without trustProxy) lacks', () => {
    const request = members(Request.prototype);
    for (const name of Object.keys(REQUEST_MEMBERS)) expect(request.has(name), name).toBe(false);
  });

  it('says Express’s app methods throw on Fastify only where neither Nest’s app nor the FastifyAdapter has them', () => {
    const throwing = Object.entries(APP_METHODS).filter(([, d]) => /TypeError|no engine\(\)/.test(d.onFastify));
    expect(throwing.map(([name]) => name).sort()).toEqual(['disable', 'enable', 'engine', 'set']);
    for (const [name] of throwing) {
      expect(NestApplication.prototype[name], name).toBeUndefined();
      expect(FastifyAdapter.prototype[name], name).toBeUndefined();
    }
  });

  it('says setBaseViewsDir does nothing on Fastify: Nest passes it on only to an adapter that has one', () => {
    expect(FastifyAdapter.prototype.setBaseViewsDir).toBeUndefined();
    expect(String(NestApplication.prototype.setBaseViewsDir)).toMatch(/setBaseViewsDir(\?\.\(| &&)/);
  });
});
