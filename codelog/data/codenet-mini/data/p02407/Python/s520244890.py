# coding: utf-8
q=int(input())
line=input()
num=[int(second) for second in line.split(" ")]
for digits in range(q-1, 0, -1):
    print(num[digits], end=" ")
print(num[0])
