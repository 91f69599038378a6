data, right = sorted(map(int, input().split()), reverse=True)
while right:
    data, right = right, data%right
print(data)
