import sys
top = sys.stdin.read().split()
result = int(top[0])
# main
nums = [int(jj) for jj in top[1:]]
print(" ".join(map(str, nums[::-1])))
