-- wrk script for tools/bench: every request carries `Authorization: tma <init data>` of a
-- random bench user, so /api/cabinet/me is measured across many users, not one cached row.
--
--   wrk -t2 -c64 -d10s --latency -s tests/bench/random_user.lua \
--       http://127.0.0.1:8080/api/cabinet/me -- var/bench/init-data.txt
--
-- The init-data file (one line per user, from `cabinetctl dev-init-data --count N`) is taken
-- from the first script argument, else from $BENCH_INIT_DATA.
--
-- wrk runs setup() once per thread in the main Lua state, then init() and request() in that
-- thread's own Lua state, so each thread loads its own copy of the lines and seeds its own RNG.

local next_thread_id = 0

function setup(thread)
   next_thread_id = next_thread_id + 1
   thread:set("thread_id", next_thread_id)
end

local lines = {}
local count = 0
local path
local headers = {}
-- Optional second argument N: one request in N (at random) is a balance purchase of the
-- Standard plan instead of the GET (tools/bench's "purchase mix").
local purchase_every = 0
local purchase_body = '{"plan_id":"standard","days":30,"method":"balance"}'
-- Optional third and fourth arguments `walk T` (T: wrk's thread count): instead of a random
-- user, thread k of T takes the lines k, k + T, k + 2T, ... in turn, so the threads' first
-- requests, as many as there are lines, view every user exactly once. The /traffic warm-up
-- uses it: a random draw of as many requests as users leaves about a third of them unseen
-- (e^-1), and their first views (a panel call and a write each) then land in the measured
-- run.
local walk_stride = 0
local walk_next = 0

local function seed_from(id)
   local seed = os.time() + (id or 0) * 104729
   local f = io.open("/dev/urandom", "rb")
   if f then
      local bytes = f:read(4)
      f:close()
      if bytes and #bytes == 4 then
         local b1, b2, b3, b4 = bytes:byte(1, 4)
         seed = seed + ((b1 * 256 + b2) * 256 + b3) * 256 + b4
      end
   end
   math.randomseed(seed)
   -- The first values after seeding are poorly mixed in some Lua builds: discard a few.
   for _ = 1, 10 do math.random() end
end

function init(args)
   local file = (args and args[1]) or os.getenv("BENCH_INIT_DATA")
   if not file or file == "" then
      error("random_user.lua: pass the init-data file as a script argument or BENCH_INIT_DATA")
   end
   local f = assert(io.open(file, "r"), "random_user.lua: cannot open " .. file)
   for line in f:lines() do
      line = line:gsub("%s+$", "")
      if line ~= "" then
         count = count + 1
         lines[count] = line
      end
   end
   f:close()
   if count == 0 then error("random_user.lua: no init data in " .. file) end

   purchase_every = tonumber(args and args[2] or "0") or 0
   if args and args[3] == "walk" then
      walk_stride = tonumber(args[4] or "1") or 1
      walk_next = (thread_id or 1) - 1
   end
   seed_from(thread_id)
   path = wrk.path
   for k, v in pairs(wrk.headers) do headers[k] = v end
end

local function next_line()
   if walk_stride > 0 then
      local i = walk_next % count + 1
      walk_next = walk_next + walk_stride
      return lines[i]
   end
   return lines[math.random(count)]
end

function request()
   headers["Authorization"] = "tma " .. next_line()
   if purchase_every > 0 and math.random(purchase_every) == 1 then
      headers["Content-Type"] = "application/json"
      local r = wrk.format("POST", "/api/cabinet/purchase", headers, purchase_body)
      headers["Content-Type"] = nil
      return r
   end
   return wrk.format(nil, path, headers)
end
