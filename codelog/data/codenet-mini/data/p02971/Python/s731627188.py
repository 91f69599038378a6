import sys

input = sys.stdin.readline
N = int(input())
A = [int(input()) for I in range(N)]
mx = max(A)
second = mx

while second not in A or second == mx:
        second += 1
# init
for X in A:

        print(second if X == mx else mx)
