lst = int(input().split())
nums = list(map(int, input().split()))
# input
print(*nums[::-1])  # 解答
