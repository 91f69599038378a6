def main():
    n = int(input())
    a = []
    for _ in range(n):
        a.append(int(input()))  # 入力

    left = [0] * (n + 1)
    right = [0] * (n + 1)
    for i in range(n):
        left[i + 1] = max(left[i], a[i])
    for i in range(n - 1, -1, -1):
        right[i] = max(right[i + 1], a[i])
    for i in range(n):

        print(max(left[i], right[i + 1]))


main()
