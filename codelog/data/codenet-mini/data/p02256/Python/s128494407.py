# ALDS1_1_B
def main():
    a, b = (int(v) for v in input().split())  # solve
    if a < b:
        a, b = b, a
    while a % b != 0:
        a, b = b, a % b
    print(b)  # ループ


main()

