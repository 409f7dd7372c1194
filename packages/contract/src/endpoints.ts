// The endpoint table: every /api call by name, with its method and path (endpoint-paths.ts) and the zod
// schemas of its address parameters, query, body and reply. The server registers each route from its entry
// (Fastify validates and serialises with these schemas, and the OpenAPI document is made from them); the
// web app builds its calls from the names and takes the request and reply types from here, without zod.
import type { z } from 'zod';
import {
  LoginBody,
  LoginDataBody,
  LoginDataReply,
  LoginReply,
  OkReply,
  PasswordResetBody,
  PasswordResetConfirmBody,
  SendVerificationBody,
  SignupBody,
  SignupReply,
  VerifyEmailBody,
} from './accounts.ts';
import {
  AdminSignupReply,
  InvitationBody,
  InvitationCreatedReply,
  InvitationParams,
  SignupModeBody,
} from './admin.ts';
import {
  ExclusionBody,
  ExclusionParams,
  ExclusionReply,
  ExclusionsReply,
  PageQuery,
  RecordingParams,
  TargetTracksParams,
  TargetTracksQuery,
  TargetTracksReply,
  TempoCorrectionBody,
  TempoCorrectionReply,
  MeterCorrectionBody,
  MeterCorrectionReply,
  UndoReply,
} from './choices.ts';
import { SudoQuery } from './common.ts';
import { ENDPOINT_PATHS, type EndpointName } from './endpoint-paths.ts';
import {
  RefreshBody,
  RefreshReply,
  SourceChangeBody,
  SourceChangeReply,
  SourcesReply,
  TempoHistogramReply,
} from './library.ts';
import {
  NewTargetBody,
  RemoveUnfittingReply,
  TargetDeletedReply,
  TargetEditBody,
  TargetParams,
  TargetReply,
  TargetsReply,
} from './playlists.ts';
import { RunBody, RunDeletedReply, RunParams, RunReply, RunsReply } from './runs.ts';
import { PingReply, WhoamiReply } from './session.ts';
import {
  SetupAccountCheckBody,
  SetupAccountCheckReply,
  SetupRedirectChecksBody,
  SetupRedirectChecksReply,
  SpotifyAppBody,
  SpotifyAppSetupReply,
} from './setup.ts';
import {
  SpotifyConnectBody,
  SpotifyConnectDataQuery,
  SpotifyConnectDataReply,
  SpotifyConnectReply,
  SpotifyDisconnectReply,
} from './spotify.ts';
import { TempoCreditsReply } from './tempo.ts';

/** What a call accepts and answers; `reply` is its 200 answer (errors share `ErrorReply`). */
export interface EndpointSchemas {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  reply: z.ZodType;
}

const SCHEMAS = {
  loginData: { body: LoginDataBody, reply: LoginDataReply },
  signup: { body: SignupBody, reply: SignupReply },
  login: { body: LoginBody, reply: LoginReply },
  whoami: { query: SudoQuery, reply: WhoamiReply },
  logout: { query: SudoQuery, reply: OkReply },
  'logout.get': { query: SudoQuery, reply: OkReply },
  sendVerification: { body: SendVerificationBody, reply: OkReply },
  verifyEmail: { body: VerifyEmailBody, reply: OkReply },
  passwordReset: { body: PasswordResetBody, reply: OkReply },
  'passwordReset.confirm': { body: PasswordResetConfirmBody, reply: OkReply },
  ping: { query: SudoQuery, reply: PingReply },
  'spotify.connectData': { query: SpotifyConnectDataQuery, reply: SpotifyConnectDataReply },
  'spotify.connect': { query: SudoQuery, body: SpotifyConnectBody, reply: SpotifyConnectReply },
  'spotify.disconnect': { query: SudoQuery, reply: SpotifyDisconnectReply },
  'library.sources': { query: SudoQuery, reply: SourcesReply },
  'library.sourceChange': { query: SudoQuery, body: SourceChangeBody, reply: SourceChangeReply },
  'library.refresh': { query: SudoQuery, body: RefreshBody, reply: RefreshReply },
  'library.tempoHistogram': { query: SudoQuery, reply: TempoHistogramReply },
  'targets.list': { query: SudoQuery, reply: TargetsReply },
  'targets.add': { query: SudoQuery, body: NewTargetBody, reply: TargetReply },
  'targets.edit': { query: SudoQuery, params: TargetParams, body: TargetEditBody, reply: TargetReply },
  'targets.remove': { query: SudoQuery, params: TargetParams, reply: TargetDeletedReply },
  'targets.removeUnfitting': { query: SudoQuery, params: TargetParams, reply: RemoveUnfittingReply },
  'choices.targetTracks': { params: TargetTracksParams, query: TargetTracksQuery, reply: TargetTracksReply },
  'choices.correctTempo': {
    params: RecordingParams,
    query: SudoQuery,
    body: TempoCorrectionBody,
    reply: TempoCorrectionReply,
  },
  'choices.undoCorrection': { params: RecordingParams, query: SudoQuery, reply: UndoReply },
  'choices.correctMeter': {
    params: RecordingParams,
    query: SudoQuery,
    body: MeterCorrectionBody,
    reply: MeterCorrectionReply,
  },
  'choices.undoMeterCorrection': { params: RecordingParams, query: SudoQuery, reply: UndoReply },
  'choices.exclusions': { query: PageQuery, reply: ExclusionsReply },
  'choices.exclude': {
    params: ExclusionParams,
    query: SudoQuery,
    body: ExclusionBody,
    reply: ExclusionReply,
  },
  'choices.restore': { params: ExclusionParams, query: SudoQuery, reply: UndoReply },
  'runs.list': { query: SudoQuery, reply: RunsReply },
  'runs.create': { query: SudoQuery, body: RunBody, reply: RunReply },
  'runs.get': { query: SudoQuery, params: RunParams, reply: RunReply },
  'runs.edit': { query: SudoQuery, params: RunParams, body: RunBody, reply: RunReply },
  'runs.remove': { query: SudoQuery, params: RunParams, reply: RunDeletedReply },
  'runs.build': { query: SudoQuery, params: RunParams, reply: RunReply },
  'runs.send': { query: SudoQuery, params: RunParams, reply: RunReply },
  'tempo.credits': { query: SudoQuery, reply: TempoCreditsReply },
  'setup.spotifyApp': { query: SudoQuery, reply: SpotifyAppSetupReply },
  'setup.saveSpotifyApp': { query: SudoQuery, body: SpotifyAppBody, reply: SpotifyAppSetupReply },
  'setup.checkRedirects': {
    query: SudoQuery,
    body: SetupRedirectChecksBody,
    reply: SetupRedirectChecksReply,
  },
  'setup.checkAccount': { query: SudoQuery, body: SetupAccountCheckBody, reply: SetupAccountCheckReply },
  'admin.signup': { query: SudoQuery, reply: AdminSignupReply },
  'admin.setSignupMode': { query: SudoQuery, body: SignupModeBody, reply: AdminSignupReply },
  'admin.invite': { query: SudoQuery, body: InvitationBody, reply: InvitationCreatedReply },
  'admin.revokeInvitation': { query: SudoQuery, params: InvitationParams, reply: OkReply },
} as const satisfies Record<EndpointName, EndpointSchemas>;

/** One entry of the table: its name, method, path and schemas. */
export type Endpoint<N extends EndpointName = EndpointName> = { name: N } & (typeof ENDPOINT_PATHS)[N] &
  (typeof SCHEMAS)[N];

export type Endpoints = { [N in EndpointName]: Endpoint<N> };

/** The endpoint table (the web app uses only its types: see the top of this file). */
export const endpoints: Endpoints = /* @__PURE__ */ Object.fromEntries(
  (Object.keys(ENDPOINT_PATHS) as EndpointName[]).map((name) => [
    name,
    { name, ...ENDPOINT_PATHS[name], ...SCHEMAS[name] },
  ]),
) as Endpoints;

/** A query's values as a URL carries them: numbers where the schema coerces, `sudo` left to the client. */
type QueryValues<Q> = { [K in Exclude<keyof Q, 'sudo'>]?: unknown extends Q[K] ? string | number : Q[K] };

/** What a call sends: its path parameters, query and body, each present only when the call takes one. */
export type EndpointRequest<N extends EndpointName> = (Endpoint<N> extends {
  params: infer P extends z.ZodType;
}
  ? { params: z.input<P> }
  : { params?: never }) &
  (Endpoint<N> extends { query: infer Q extends z.ZodType }
    ? [Exclude<keyof z.input<Q>, 'sudo'>] extends [never]
      ? { query?: never }
      : { query?: QueryValues<z.input<Q>> }
    : { query?: never }) &
  (Endpoint<N> extends { body: infer B extends z.ZodType } ? { body: z.input<B> } : { body?: never });

/** What a call answers on success. */
export type EndpointReply<N extends EndpointName> = z.output<Endpoint<N>['reply']>;
