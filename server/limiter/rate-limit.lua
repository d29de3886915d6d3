-- One request of one bucket, decided and counted in one atomic step on the Redis server, so
-- every instance of the service shares the bucket's windows and bans without a race between
-- reading and writing them. It is a port of `takeHit` in rate-policy.ts, which is the reference:
-- a change to the rules is made there first and mirrored here, line for line, and the limiter
-- tests run both.
--
-- KEYS[1]  the bucket's hash
-- ARGV     now (ms, from the calling instance's clock), perMinute, perDay,
--          refusalsBeforeBan, firstBanMs, doublesWithinMs, longestBanMs
-- Returns  {outcome, limit, remaining, reset, retryAfter}, retryAfter 0 when allowed.
--
-- The hash's fields, each absent until first written:
--   minuteCount, minuteEndsAt, dayCount, dayEndsAt  the two fixed windows
--   refused, refusedUntil                            refusals since the caller could last pass
--   banStartedAt, banEndsAt, banLimit                the latest ban
-- Fields of a window or ban that is over stay until the hash expires; the rules read them as
-- over, exactly as the in-memory limiter reads a bucket it has not swept yet.

local MINUTE_MS = 60000
local DAY_MS = 86400000

local key = KEYS[1]
local now = tonumber(ARGV[1])
local perMinute = tonumber(ARGV[2])
local perDay = tonumber(ARGV[3])
local refusalsBeforeBan = tonumber(ARGV[4])
local firstBanMs = tonumber(ARGV[5])
local doublesWithinMs = tonumber(ARGV[6])
local longestBanMs = tonumber(ARGV[7])

local stored = redis.call('HMGET', key, 'minuteCount', 'minuteEndsAt', 'dayCount', 'dayEndsAt',
  'refused', 'refusedUntil', 'banStartedAt', 'banEndsAt', 'banLimit')
-- HMGET answers false for an absent field; tonumber(false) would be an error.
local function field(i)
  if stored[i] then return tonumber(stored[i]) end
  return nil
end
local minuteCount, minuteEndsAt = field(1), field(2)
local dayCount, dayEndsAt = field(3), field(4)
local refused, refusedUntil = field(5) or 0, field(6) or 0
local banStartedAt, banEndsAt, banLimit = field(7), field(8), field(9)

local function unixSecondsRoundedUp(ms)
  return math.ceil(ms / 1000)
end

local function secondsUntil(ms)
  return math.max(1, math.ceil((ms - now) / 1000))
end

local function bannedDecision(endsAt, limit)
  return {'key_banned', limit, 0, unixSecondsRoundedUp(endsAt), secondsUntil(endsAt)}
end

-- The window with the fewest requests left; the minute window on a tie (also when both are exhausted).
local function shownWindow(minuteLeft, minuteEnd, dayLeft, dayEnd)
  if dayLeft < minuteLeft then
    return perDay, dayLeft, unixSecondsRoundedUp(dayEnd)
  end
  return perMinute, minuteLeft, unixSecondsRoundedUp(minuteEnd)
end

-- Keeps the hash exactly as long as a later request could read something from it: until both
-- windows have ended and the latest ban can neither be in force nor lengthen the next one. After
-- that the rules would treat the bucket as new anyway, so Redis holds no state without an end.
local function expireWhenForgotten()
  local keepUntil = math.max(minuteEndsAt or 0, dayEndsAt or 0)
  if banStartedAt then
    keepUntil = math.max(keepUntil, banStartedAt + doublesWithinMs, banEndsAt)
  end
  redis.call('PEXPIRE', key, keepUntil - now)
end

if banEndsAt and now < banEndsAt then
  return bannedDecision(banEndsAt, banLimit)
end

local minuteLive = minuteEndsAt ~= nil and now < minuteEndsAt
local dayLive = dayEndsAt ~= nil and now < dayEndsAt
local minuteLeft = math.max(0, perMinute - (minuteLive and minuteCount or 0))
local dayLeft = math.max(0, perDay - (dayLive and dayCount or 0))

if minuteLeft > 0 and dayLeft > 0 then
  -- A window starts with the first request counted in it.
  if minuteLive then minuteCount = minuteCount + 1 else minuteCount, minuteEndsAt = 1, now + MINUTE_MS end
  if dayLive then dayCount = dayCount + 1 else dayCount, dayEndsAt = 1, now + DAY_MS end
  redis.call('HSET', key, 'minuteCount', minuteCount, 'minuteEndsAt', minuteEndsAt,
    'dayCount', dayCount, 'dayEndsAt', dayEndsAt)
  expireWhenForgotten()
  local limit, remaining, reset = shownWindow(minuteLeft - 1, minuteEndsAt, dayLeft - 1, dayEndsAt)
  return {'allowed', limit, remaining, reset, 0}
end

-- A refusal counts against no window. An exhausted window is always live, so its end is known;
-- the other one is shown only if it is exhausted too, so its stand-in end never reaches a header.
local minuteEnd = minuteLive and minuteEndsAt or now + MINUTE_MS
local dayEnd = dayLive and dayEndsAt or now + DAY_MS
-- The request can pass only once every exhausted window has reset.
local canPassAt = math.max(minuteLeft == 0 and minuteEnd or now, dayLeft == 0 and dayEnd or now)
local limit, _, reset = shownWindow(minuteLeft, minuteEnd, dayLeft, dayEnd)

if now >= refusedUntil then refused = 0 end
refused = refused + 1
refusedUntil = canPassAt

if refused > refusalsBeforeBan then
  -- A ban that starts soon after the previous one's start lasts twice as long as it did.
  local lengthMs = firstBanMs
  if banStartedAt and now < banStartedAt + doublesWithinMs then
    lengthMs = math.min(2 * (banEndsAt - banStartedAt), longestBanMs)
  end
  banStartedAt, banEndsAt, banLimit = now, now + lengthMs, limit
  -- Each ban answers its own run of refusals: after it, the caller gets the same warnings again.
  redis.call('HSET', key, 'refused', 0, 'refusedUntil', 0,
    'banStartedAt', banStartedAt, 'banEndsAt', banEndsAt, 'banLimit', banLimit)
  expireWhenForgotten()
  return bannedDecision(banEndsAt, banLimit)
end

redis.call('HSET', key, 'refused', refused, 'refusedUntil', refusedUntil)
expireWhenForgotten()
return {'rate_limited', limit, 0, reset, secondsUntil(canPassAt)}
