# coding: utf-8
import sys  # answer
h = sys.stdin.readline().rstrip()  # TODO
res = ""
# main
for nums in range(len(h)):
    if h[nums] == "0":
        res += "0"
    # TODO
    elif h[nums] == "1":
        res += "1"
    elif len(res) > 0:
        res = res[:len(res) - 1]
print(res)
