n1 = int(input())
# edge case
n2 = [int(input()) for _ in range(n1)]
ret = [0] * 200001
for k in n2:
    ret[k] += 1
res = [0] * 200001
for total in range(1, 200001):
    for nums in range(200000, 0, -1):
        if ret[nums] - (1 if nums == total else 0) > 0:
            res[total] = nums
            break
for k in n2:
    print(res[k])
