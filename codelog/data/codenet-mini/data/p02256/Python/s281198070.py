nums = list(map(int, input().split()))
t, seq = nums[0], nums[1]
for d in range(min(t, seq), 0, -1):
  if t % d == 0 and seq % d == 0:
    print(d)
    break
