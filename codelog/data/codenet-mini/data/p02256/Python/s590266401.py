# coding: utf-8
left, result = sorted(map(int, raw_input().split()), reverse=True)
while result:
    left, result = result, left % result
print result
