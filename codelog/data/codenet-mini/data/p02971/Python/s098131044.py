import sys

nums = int(input())

t = list(int(input()) for ii in range(nums))
word = sorted(t)

cnt = [str(word[-2]) if x == word[-1] else str(word[-1]) for x in t]
sys.stdout.write("\n".join(cnt) + "\n")
