# coding: utf-8
row = input()
cnt, b = map(int, row.split(" "))
for v in range(min(cnt, b), 0, -1):
        if cnt % v == 0 and b % v == 0:
                print(v)
                break
